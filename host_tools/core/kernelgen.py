"""Machine-code kernels written once, built per pointer width.

Viper types a pointer by its cast (``ptr16``/``ptr32``), so one function
cannot serve 16-bit and 30-bit table words without a branch per table access
in the hot loop.  ``firmware/klotski_viper.py.tmpl`` therefore holds the
layered search once, as ``search{{BITS}}``, and the firmware build (``flash``,
the virtual Pico) renders it into ``klotski_viper.py`` (``search16`` beside the
template's other functions) and ``klotski_viper32.py`` (``search32`` alone): a
table build loads only its width's copy (~9.4 KB of machine code each on a
Pico, where the build's heap peaks).  The rendered modules exist only in the
build, never in the source tree, so there is no generated copy to keep current
and no 400-line twin to read twice.

    python -m host_tools.core.kernelgen [--out DIR]   # write the rendered modules to read them

On CPython the rendered source runs as Python (``load_module``), which is how
the tests compare the kernels with the plain loop.
"""

import argparse
import sys
import types
from pathlib import Path

from host_tools.core import UserError, make_output_dir, write_atomic
from host_tools.core.fwpath import FIRMWARE_DIR

TEMPLATE_SUFFIX = ".py.tmpl"

# the function in a template that is written out once per width: from its
# decorator to the next function's decorator
_START = "@micropython.viper\ndef search{{BITS}}("
_END = "\n\n\n@micropython.viper\n"

BANNER = ("# Rendered by host_tools/core/kernelgen.py from firmware/%s at build time:\n"
          "# edit the template, never this file.\n")

# per table-word width: what differs between the copies of the search, and the
# module each goes to: the template's own name + MODULE; the copy whose MODULE
# is empty joins the template's other functions, the others get the template's
# head (imports, constants) and nothing else
WIDTHS = (
    {"BITS": "16", "WORD": "16-bit", "PTR": "16", "FULLWORD": "0xFFFF", "POP_HIGH": "", "MODULE": ""},
    {"BITS": "32", "WORD": "30-bit", "PTR": "32", "FULLWORD": "0x3FFFFFFF",
     "POP_HIGH": " + pop[NB >> 20]", "MODULE": "32"},
)


def _fill(text, values):
    for key, value in values.items():
        text = text.replace("{{%s}}" % key, value)
    if "{{" in text:
        raise UserError("unfilled placeholder in a kernel template: %s" % text[text.index("{{"):][:40])
    return text


def render(template, template_name="klotski_viper.py.tmpl"):
    """{module file name: source} of the modules a template's text renders
    into (one per width: see ``WIDTHS``)."""
    try:
        start = template.index(_START)
        end = template.index(_END, start)
    except ValueError:
        raise UserError("%s has no `search{{BITS}}` function followed by another viper function"
                        % template_name) from None
    name = template_name[:-len(TEMPLATE_SUFFIX)]
    head = BANNER % template_name + template[:start]
    search = template[start:end]
    modules = {}
    for values in WIDTHS:
        tail = "\n" if values["MODULE"] else template[end:]
        modules[name + values["MODULE"] + ".py"] = head + _fill(search, values) + tail
    return modules


def templates(fw_dir=FIRMWARE_DIR):
    """The kernel templates in ``fw_dir`` (paths)."""
    return sorted(Path(fw_dir).glob("*" + TEMPLATE_SUFFIX))


def rendered_from(path):
    """{module file name: source text} that the template at ``path`` renders into."""
    return render(Path(path).read_text(encoding="utf-8"), Path(path).name)


def rendered_modules(fw_dir=FIRMWARE_DIR):
    """{module file name: source text} of every kernel the build adds."""
    modules = {}
    for path in templates(fw_dir):
        modules.update(rendered_from(path))
    return modules


def render_into(folder, fw_dir=FIRMWARE_DIR):
    """Write every rendered kernel into ``folder``; their paths (for a file list
    that a virtual Pico compiles as the build would)."""
    paths = []
    for name, text in rendered_modules(fw_dir).items():
        path = Path(folder) / name
        write_atomic(path, text)
        paths.append(path)
    return paths


def load_module(name, fw_dir=FIRMWARE_DIR):
    """A rendered kernel as a CPython module (decorators and casts are identity
    functions there: firmware/viper_on_cpython.py), not entered in sys.modules."""
    source = rendered_modules(fw_dir)[name + ".py"]
    module = types.ModuleType(name)
    module.__file__ = "<rendered %s.py>" % name
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    return module


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m host_tools.core.kernelgen",
                                 description="Write the machine-code kernels the firmware build "
                                             "renders from firmware/*.py.tmpl, to read them.")
    ap.add_argument("--out", default="build/kernels", help="folder to write them to (default: %(default)s)")
    args = ap.parse_args(argv)
    try:
        make_output_dir(args.out)
        for path in render_into(args.out):
            print("wrote %s" % path)
    except UserError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
