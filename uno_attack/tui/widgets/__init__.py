"""Small widgets of the table screen; each reads what it shows and holds no rules."""
