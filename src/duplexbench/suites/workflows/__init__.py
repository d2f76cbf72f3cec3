"""The workflows-v1 generator: archetype catalogs -> plans -> items."""
