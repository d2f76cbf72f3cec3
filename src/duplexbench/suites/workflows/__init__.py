"""The workflow generator (workflows-v1, workflows-v2): archetype catalogs -> plans -> items."""
