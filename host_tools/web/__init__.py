"""The handheld on a web page: `python -m host_tools web` (docs/web.md)."""
