/* Tied choices of an order form, narrowed as the player picks.
   Without this script the page shows one select "combo" listing every legal combination
   (each option's value: the fields' names and values, URL-encoded). This script replaces it
   by one select per field, posting the fields' own names: each select offers only the
   choices that some legal combination still allows after the choices above it. */
(function () {
  "use strict";

  function pairs(value) {
    var out = Object.create(null);
    new URLSearchParams(value).forEach(function (v, k) { out[k] = v; });
    return out;
  }

  function enhance(combo) {
    if (combo.getAttribute("data-narrowed")) { return; }
    combo.setAttribute("data-narrowed", "1");
    var fields = JSON.parse(combo.getAttribute("data-fields") || "[]");
    var none = combo.getAttribute("data-none") || "";
    var legal = Array.prototype.map.call(combo.options, function (o) { return pairs(o.value); });
    var keep = combo.getAttribute("data-keep") ? JSON.parse(combo.getAttribute("data-keep"))
      : (combo.selectedIndex >= 0 ? legal[combo.selectedIndex] : {});
    var box = document.createElement("div");
    box.className = "narrowing";
    var selects = fields.map(function (field, i) {
      var label = document.createElement("label");
      var select = document.createElement("select");
      select.name = field.name;
      select.id = combo.id + "-" + field.name;
      label.htmlFor = select.id;
      label.textContent = field.label;
      box.appendChild(label);
      box.appendChild(select);
      select.addEventListener("change", function () { refill(i + 1); });
      return select;
    });

    function fits(candidate, upto) {
      for (var j = 0; j < upto; j += 1) {
        if ((candidate[fields[j].name] || "") !== selects[j].value) { return false; }
      }
      return true;
    }

    function refill(from) {
      for (var i = from; i < fields.length; i += 1) {
        var field = fields[i];
        var select = selects[i];
        var want = select.getAttribute("data-filled") ? select.value : (keep[field.name] || "");
        var allowed = Object.create(null);
        legal.forEach(function (candidate) {
          if (fits(candidate, i)) { allowed[candidate[field.name] || ""] = true; }
        });
        var choices = (field.optional ? [["", none]] : []).concat(field.choices);
        select.textContent = "";
        choices.forEach(function (choice) {
          if (!allowed[choice[0]]) { return; }
          var option = document.createElement("option");
          option.value = choice[0];
          option.textContent = choice[1];
          option.selected = choice[0] === want;
          select.appendChild(option);
        });
        select.setAttribute("data-filled", "1");
      }
    }

    refill(0);
    var holder = combo.parentNode;
    holder.textContent = "";
    holder.appendChild(box);
  }

  function start() {
    document.querySelectorAll("select[name=combo][data-fields]").forEach(enhance);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
}());
