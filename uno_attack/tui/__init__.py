"""The terminal game: UNO Attack in Textual (``uno-attack play``)."""
