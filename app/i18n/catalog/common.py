"""Platform messages raised in code owned elsewhere (order page, GM page, leagues, absences),
translated where they are shown (``{{ error|game_text(slug) }}``).  English -> (Portuguese, Greek)."""

TERMS: dict[str, tuple[str, str]] = {}

MESSAGES = {
    # the order page
    "Your order is on file.": ("A sua ordem está registada.", "Η εντολή σας έχει καταχωριστεί."),
    "Your order was applied.": ("A sua ordem foi aplicada.", "Η εντολή σας εφαρμόστηκε."),
    "{notice} Receipt: {receipt}": ("{notice} Recibo: {receipt}", "{notice} Απόδειξη: {receipt}"),
    "This form was open too long. Your order is shown again below: check it and send it once more.": (
        "Este formulário esteve aberto demasiado tempo. A sua ordem é mostrada de novo abaixo: verifique-a e envie-a outra vez.",
        "Η φόρμα έμεινε ανοιχτή πολύ ώρα. Η εντολή σας εμφανίζεται ξανά παρακάτω: ελέγξτε την και στείλτε την άλλη μία φορά."),
    "That order is too long: an order in the notation has at most {n} characters. Nothing was stored.": (
        "Essa ordem é demasiado longa: uma ordem na notação tem no máximo {n} caracteres. Nada foi guardado.",
        "Η εντολή είναι πολύ μεγάλη: μια εντολή στη σημειογραφία έχει το πολύ {n} χαρακτήρες. Δεν αποθηκεύτηκε τίποτα."),
    "That step was already resolved, so this order was not used. The page now shows what you owe now (if anything).": (
        "Esse passo já foi resolvido, por isso esta ordem não foi usada. A página mostra agora o que deve agora (se algo).",
        "Αυτό το βήμα έχει ήδη επιλυθεί, οπότε η εντολή δεν χρησιμοποιήθηκε. Η σελίδα δείχνει τώρα τι οφείλετε (αν οφείλετε κάτι)."),
    "There is nothing you can send now.": ("Não há nada que possa enviar agora.", "Δεν υπάρχει τίποτα που να μπορείτε να στείλετε τώρα."),
    "The game is not running now, so nothing was changed.": ("O jogo não está em curso agora, por isso nada foi alterado.", "Το παιχνίδι δεν είναι σε εξέλιξη τώρα, οπότε δεν άλλαξε τίποτα."),
    "That order cannot be read: {exc}": ("Não é possível ler essa ordem: {exc}", "Η εντολή δεν διαβάζεται: {exc}"),
    "Please enter the e-mail address you play with.": ("Indique o endereço de e-mail com que joga.", "Δώστε τη διεύθυνση e-mail με την οποία παίζετε."),
    # the GM pages
    "options must be a JSON object": ("as opções têm de ser um objeto JSON", "οι επιλογές πρέπει να είναι αντικείμενο JSON"),
    "hours per turn must be more than 0": ("as horas por turno têm de ser mais do que 0", "οι ώρες ανά γύρο πρέπει να είναι περισσότερες από 0"),
    "choose a game": ("escolha um jogo", "επιλέξτε παιχνίδι"),
    "A pause request is already open.": ("Já há um pedido de pausa aberto.", "Υπάρχει ήδη ανοιχτό αίτημα παύσης."),
    "GM extensions are capped: {h} hours left in this game.": ("Os prolongamentos do GM têm limite: restam {h} horas neste jogo.", "Οι παρατάσεις του GM έχουν όριο: απομένουν {h} ώρες σε αυτό το παιχνίδι."),
    "You play in this game, so you cannot extend or pause it yourself: ask the other players with \"Ask to pause\" (every one must agree).": (
        "Joga neste jogo, por isso não o pode prolongar nem pausar sozinho: peça aos outros jogadores com \"Pedir uma pausa\" (todos têm de concordar).",
        "Παίζετε σε αυτό το παιχνίδι, οπότε δεν μπορείτε να το παρατείνετε ή να το σταματήσετε μόνοι σας: ζητήστε το από τους άλλους παίκτες με το \"Αίτημα παύσης\" (πρέπει να συμφωνήσουν όλοι)."),
    "Give the new player's e-mail address.": ("Indique o endereço de e-mail do novo jogador.", "Δώστε τη διεύθυνση e-mail του νέου παίκτη."),
    "No mail to {seat} yet.": ("Ainda não há e-mail para {seat}.", "Δεν υπάρχει ακόμη μήνυμα για {seat}."),
    # absences and leagues
    "the absence must end after it starts": ("a ausência tem de terminar depois de começar", "η απουσία πρέπει να τελειώνει μετά την αρχή της"),
    "absences are declared in advance, not for the past": ("as ausências declaram-se com antecedência, não para o passado", "οι απουσίες δηλώνονται εκ των προτέρων, όχι για το παρελθόν"),
    "that would be more than {limit} days away in {year}": ("isso seriam mais de {limit} dias de ausência em {year}", "αυτό θα ήταν πάνω από {limit} ημέρες απουσίας το {year}"),
    "{email} is not an e-mail address": ("{email} não é um endereço de e-mail", "Το {email} δεν είναι διεύθυνση e-mail"),
    "a season needs at least {small} members ({n} so far)": ("uma temporada precisa de pelo menos {small} membros ({n} até agora)", "μια σεζόν χρειάζεται τουλάχιστον {small} μέλη ({n} ως τώρα)"),
    "season {n} is still running": ("a temporada {n} ainda está em curso", "η σεζόν {n} είναι ακόμη σε εξέλιξη"),
}
