"""Load user strategies given as ``module:function`` (or ``path/file.py:function``)."""

import importlib
import importlib.util
import os

from host_tools.cli import UserError


def load_callable(spec):
    """Return the callable named by ``module:function`` or ``file.py:function``."""
    if ":" not in spec:
        raise UserError("strategy %r must look like module:function" % spec)
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        raise UserError("strategy %r must look like module:function" % spec)
    try:
        if module_name.endswith(".py"):
            if not os.path.isfile(module_name):
                raise UserError("strategy file %s does not exist" % module_name)
            loader_spec = importlib.util.spec_from_file_location("user_strategy", module_name)
            module = importlib.util.module_from_spec(loader_spec)
            loader_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except UserError:
        raise
    except (ImportError, ValueError) as exc:
        raise UserError("cannot import strategy module %r: %s" % (module_name, exc))
    except SyntaxError as exc:
        raise UserError("strategy module %r has a syntax error on line %s" % (module_name, exc.lineno))
    func = getattr(module, attr, None)
    if func is None or not callable(func):
        raise UserError("%r has no function %r" % (module_name, attr))
    return func
