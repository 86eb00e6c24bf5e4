"""Per-game message catalogues: ``MESSAGES`` (templates) and ``TERMS`` (glossary), each
English -> (Portuguese, Greek).  Templates use ``{name}`` placeholders; a captured value
is translated through ``TERMS`` (and the templates) before it is put back."""
