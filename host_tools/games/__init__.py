"""A single game's laptop code: the hooks the shared tools call through the
registry (host_tools/core/registry.py: HOOKS), e.g. the flash hook of Klotski,
and what the game's plug-in strategies receive (``<game>_plugin.py``: ``payload``
and ``view`` for host_tools/core/plugins.py), which the game's own command uses."""
