"""Host scripts that write firmware source from a template (``python -m
host_tools.codegen.<script>``); a test checks that every generated file is
current."""
