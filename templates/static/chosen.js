/* A select too narrow for its chosen option (a phone, a long name in Greek) shows that option's whole
   text on a line under it, so that two options that begin alike can be told apart. The line is hidden
   when the text fits, and for a select that is disabled or not shown. A script that sets a select's
   value sends it a "change" event, as a player's pick does. */
(function () {
  "use strict";
  if (window.chosenFull) { return; }
  var ruler = document.createElement("canvas").getContext("2d");

  function fits(select, text) {
    var style = getComputedStyle(select);
    ruler.font = style.fontStyle + " " + style.fontWeight + " " + style.fontSize + " " + style.fontFamily;
    var room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
    var width = ruler.measureText(text).width;
    return width <= room && width <= select.clientWidth - 40;
  }

  function echo(select) {
    var line = select.nextElementSibling;
    if (!line || !line.classList.contains("chosen-full")) {
      line = document.createElement("p");
      line.className = "chosen-full";
      line.setAttribute("aria-hidden", "true");  /* the select itself tells a screen reader its choice */
      select.insertAdjacentElement("afterend", line);
    }
    var option = select.options[select.selectedIndex];
    var text = option ? option.text : "";
    line.textContent = text;
    line.hidden = !text || select.disabled || select.hidden || select.offsetParent === null || fits(select, text);
  }

  function refresh() { document.querySelectorAll("form select").forEach(echo); }

  window.chosenFull = true;  /* a page that includes this script twice runs it once */
  document.addEventListener("change", refresh);
  document.addEventListener("toggle", refresh, true);  /* a <details> opened (toggle does not bubble) */
  window.addEventListener("resize", refresh);
  if (document.readyState === "complete") { refresh(); } else { window.addEventListener("load", refresh); }
})();
