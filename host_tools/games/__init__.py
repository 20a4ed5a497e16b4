"""Laptop hooks of single games that the shared tools call through the registry
(host_tools/core/registry.py: HOOKS), e.g. the flash hook of Klotski."""
