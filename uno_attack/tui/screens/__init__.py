"""The screens of the game: the table and the dialogs over it."""
