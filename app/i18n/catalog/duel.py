"""Dorfromantik: The Duel -- English -> (Portuguese, Greek).

Portuguese terms follow the rules of seed 003: Peça de Paisagem, Peça de Tarefa,
Marcador de Tarefa, Trilho, Rio, Floresta, Vila, Bandeira.
"""

TERMS = {
    "Dorfromantik: The Duel": ("Dorfromantik: The Duel", "Dorfromantik: The Duel"),
    "Forest": ("Floresta", "Δάσος"), "Grain": ("Trigo", "Σιτάρι"), "Village": ("Vila", "Χωριό"), "Rail": ("Trilho", "Σιδηρόδρομος"),
    "River": ("Rio", "Ποτάμι"), "Connection": ("Ligação", "Σύνδεση"), "Double": ("Dupla", "Διπλή"),
    "green": ("verde", "πράσινη"), "yellow": ("amarela", "κίτρινη"), "red": ("vermelha", "κόκκινη"),
    " (automatic placement)": (" (colocação automática)", " (αυτόματη τοποθέτηση)"),
}

MESSAGES = {
    "The turn must be a number, e.g. turn=7.": ("A vez tem de ser um número, p. ex. turn=7.", "Ο γύρος πρέπει να είναι αριθμός, π.χ. turn=7."),
    "q, r and rotation must be whole numbers, e.g. PLACE L17 2 -1 3.": ("q, r e a rotação têm de ser números inteiros, p. ex. PLACE L17 2 -1 3.", "Τα q, r και η περιστροφή πρέπει να είναι ακέραιοι, π.χ. PLACE L17 2 -1 3."),
    "Turn {turn}: {seat} has no legal placement for {tile} and passes.": ("Vez {turn}: {seat} não tem colocação legal para {tile} e passa.", "Γύρος {turn}: ο {seat} δεν έχει έγκυρη τοποθέτηση για το {tile} και κάνει πάσο."),
    "Turn {turn}: {seat} has no legal placement for {tile} and passes; marker {marker} goes to the box.": ("Vez {turn}: {seat} não tem colocação legal para {tile} e passa; o marcador {marker} vai para a caixa.", "Γύρος {turn}: ο {seat} δεν έχει έγκυρη τοποθέτηση για το {tile} και κάνει πάσο· ο δείκτης {marker} πηγαίνει στο κουτί."),
    "The game is over. Final scores: {parts}.": ("O jogo terminou. Pontuações finais: {parts}.", "Το παιχνίδι τελείωσε. Τελικές βαθμολογίες: {parts}."),
    "The game is over; no more orders are taken.": ("O jogo terminou; não se aceitam mais ordens.", "Το παιχνίδι τελείωσε· δεν γίνονται δεκτές άλλες εντολές."),
    "{seat} is not a seat in this game.": ("{seat} não é um lugar neste jogo.", "Το {seat} δεν είναι θέση σε αυτό το παιχνίδι."),
    "You have no legal placement for {tile} this turn and pass automatically; no order is needed.": ("Não tem colocação legal para {tile} nesta vez e passa automaticamente; não é precisa ordem.", "Δεν έχετε έγκυρη τοποθέτηση για το {tile} σε αυτόν τον γύρο και κάνετε αυτόματα πάσο· δεν χρειάζεται εντολή."),
    "Turn {turn}: {seat} placed {tile} at ({q},{r}) rotation {rot}{how}.": ("Vez {turn}: {seat} colocou {tile} em ({q},{r}) rotação {rot}{how}.", "Γύρος {turn}: ο {seat} τοποθέτησε το {tile} στο ({q},{r}) περιστροφή {rot}{how}."),
    "Active markers: {counts}; stacks: {land} landscape, {task} task.": ("Marcadores ativos: {counts}; pilhas: {land} de paisagem, {task} de tarefa.", "Ενεργοί δείκτες: {counts}· στοίβες: {land} τοπίου, {task} αποστολών."),
    "Turn {turn}: {tile} is revealed.": ("Vez {turn}: é revelada {tile}.", "Γύρος {turn}: αποκαλύπτεται το {tile}."),
    "Turn {turn}: {tile} is revealed with marker {marker}.": ("Vez {turn}: é revelada {tile} com o marcador {marker}.", "Γύρος {turn}: αποκαλύπτεται το {tile} με τον δείκτη {marker}."),
    "{seat} completed task {marker} at ({cell}).": ("{seat} concluiu a tarefa {marker} em ({cell}).", "Ο {seat} ολοκλήρωσε την αποστολή {marker} στο ({cell})."),
    "{seat}'s task {marker} at ({cell}) is cancelled; the marker goes to the box.": ("A tarefa {marker} de {seat} em ({cell}) é cancelada; o marcador vai para a caixa.", "Η αποστολή {marker} του {seat} στο ({cell}) ακυρώνεται· ο δείκτης πηγαίνει στο κουτί."),
    "{seat} forfeits after {n} automatic placements in a row.": ("{seat} desiste após {n} colocações automáticas seguidas.", "Ο {seat} αποκλείεται μετά από {n} συνεχόμενες αυτόματες τοποθετήσεις."),
    "Turn {turn}: place {tile} with marker {marker}": ("Vez {turn}: coloque {tile} com o marcador {marker}", "Γύρος {turn}: τοποθετήστε το {tile} με τον δείκτη {marker}"),
    "Turn {turn}: place {tile}": ("Vez {turn}: coloque {tile}", "Γύρος {turn}: τοποθετήστε το {tile}"),
    "Place {tile} in your area. Pick one of the numbered positions and a rotation (clockwise steps of 60 degrees; the letters list the N, NE, SE, S, SW, NW edges). Rails must meet rails and rivers must meet rivers. Your order stays sealed until both are in.": (
        "Coloque {tile} na sua área. Escolha uma das posições numeradas e uma rotação (passos de 60 graus no sentido horário; as letras listam os lados N, NE, SE, S, SO, NO). Trilhos têm de encontrar trilhos e rios têm de encontrar rios. A sua ordem fica selada até ambos terem jogado.",
        "Τοποθετήστε το {tile} στην περιοχή σας. Διαλέξτε μία από τις αριθμημένες θέσεις και μια περιστροφή (βήματα 60 μοιρών δεξιόστροφα· τα γράμματα δίνουν τις πλευρές Β, ΒΑ, ΝΑ, Ν, ΝΔ, ΒΔ). Οι σιδηρόδρομοι πρέπει να συναντούν σιδηροδρόμους και τα ποτάμια ποτάμια. Η εντολή σας μένει σφραγισμένη μέχρι να δώσουν και οι δύο."),
    "Turn {turn}: {seat} has no legal placement for {tile} and passes{extra}.": ("Vez {turn}: {seat} não tem colocação legal para {tile} e passa{extra}.", "Γύρος {turn}: ο {seat} δεν έχει έγκυρη τοποθέτηση για το {tile} και κάνει πάσο{extra}."),
    "Turn {turn}: {tile} is revealed{extra}.": ("Vez {turn}: é revelada {tile}{extra}.", "Γύρος {turn}: αποκαλύπτεται το {tile}{extra}."),
    "; marker {marker} goes to the box": ("; o marcador {marker} vai para a caixa", "· ο δείκτης {marker} πηγαίνει στο κουτί"),
    " with marker {marker}": (" com o marcador {marker}", " με τον δείκτη {marker}"),
    "Place the tile": ("Colocar a peça", "Τοποθέτηση του πλακιδίου"), "Position": ("Posição", "Θέση"), "Rotation": ("Rotação", "Περιστροφή"),
    "{n}: ({q},{r}) rotation any": ("{n}: ({q},{r}) qualquer rotação", "{n}: ({q},{r}) οποιαδήποτε περιστροφή"),
    "{n}: ({q},{r}) rotation {rots}": ("{n}: ({q},{r}) rotação {rots}", "{n}: ({q},{r}) περιστροφή {rots}"),
    "{tile} (edges {edges})": ("{tile} (lados {edges})", "{tile} (πλευρές {edges})"),
    "{tile} (edges {edges}, {colour} flag)": ("{tile} (lados {edges}, bandeira {colour})", "{tile} (πλευρές {edges}, {colour} σημαία)"),
    "{tile} ({task} task, edges {edges})": ("{tile} (tarefa de {task}, lados {edges})", "{tile} (αποστολή: {task}, πλευρές {edges})"),
    "{tile} ({task} task, edges {edges}, {colour} flag)": ("{tile} (tarefa de {task}, lados {edges}, bandeira {colour})", "{tile} (αποστολή: {task}, πλευρές {edges}, {colour} σημαία)"),
    "{tile} with marker {marker}": ("{tile} com o marcador {marker}", "{tile} με τον δείκτη {marker}"),
    # the board (SVG)
    "{seat} (opponent): {n} points, {m} active": ("{seat} (adversário): {n} pontos, {m} ativas", "{seat} (αντίπαλος): {n} πόντοι, {m} ενεργές"),
    "{seat} (you): {n} points, {m} active": ("{seat} (você): {n} pontos, {m} ativas", "{seat} (εσείς): {n} πόντοι, {m} ενεργές"),
    "Flags A green (forest), B yellow (grain), C red (village). Markers: white open, grey with tick done, crossed cancelled.": (
        "Bandeiras A verde (floresta), B amarela (trigo), C vermelha (vila). Marcadores: branco aberta, cinza com visto concluída, riscado cancelada.",
        "Σημαίες A πράσινη (δάσος), B κίτρινη (σιτάρι), C κόκκινη (χωριό). Δείκτες: λευκός ανοιχτή, γκρι με τικ ολοκληρωμένη, διαγραμμένος ακυρωμένη."),
    "forest": ("floresta", "δάσος"), "grain": ("trigo", "σιτάρι"), "meadow": ("prado", "λιβάδι"), "rail": ("trilho", "σιδηρόδρομος"),
    "river": ("rio", "ποτάμι"), "village": ("vila", "χωριό"),
}
