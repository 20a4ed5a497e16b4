"""`python -m host_tools web --build DIR` / `--serve [--port N]` / `make web`.

The site is static: ``index.html``, ``app.js``, ``keyscript.mjs`` and ``style.css`` from
host_tools/web/site/, the official MicroPython WebAssembly port
(``micropython.mjs`` + ``micropython.wasm`` from node_modules) and, in
``firmware/``, the firmware's flat ``.py`` modules as they are in firmware/
(the sources the simulator and the Node VM run: the port loads source, has no
native code, so ``flash``'s .mpy build does not apply; ``hw_web.py`` is the
browser's hardware backend among them) with ``manifest.json`` naming them.
Any static file server can publish the folder (docs/web.md).
"""

import json
import shutil
from pathlib import Path

from host_tools.core import UserError, make_output_dir, write_atomic
from host_tools.core.fwpath import FIRMWARE_DIR, ROOT

SITE_DIR = Path(__file__).resolve().parent / "site"
PORT_DIR = ROOT / "node_modules" / "@micropython" / "micropython-webassembly-pyscript"
PORT_FILES = ("micropython.mjs", "micropython.wasm")
SITE_FILES = ("index.html", "app.js", "keyscript.mjs", "style.css")
DEFAULT_DIR = ROOT / "build" / "web"
# served with these types (the wasm one lets the browser compile while it downloads)
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".py": "text/plain; charset=utf-8", ".bin": "application/octet-stream"}


def firmware_modules():
    """The flat firmware modules the page loads, sorted (subfolders and kernel
    templates are not modules the port can use)."""
    return sorted(p.name for p in FIRMWARE_DIR.glob("*.py"))


def build_site(out_dir):
    """Write the site into ``out_dir``; returns {relative path: size in bytes}."""
    out = Path(out_dir)
    make_output_dir(out)
    make_output_dir(out / "firmware")
    sizes = {}
    for name in PORT_FILES:
        src = PORT_DIR / name
        if not src.is_file():
            raise UserError("missing %s: run `make setup` (npm ci installs the MicroPython port)" % src)
        sizes[name] = _copy(src, out / name)
    for name in SITE_FILES:
        sizes[name] = _copy(SITE_DIR / name, out / name)
    modules = firmware_modules()
    for name in modules:
        sizes["firmware/" + name] = _copy(FIRMWARE_DIR / name, out / "firmware" / name)
    manifest = json.dumps({"modules": modules}, indent=1).encode()
    write_atomic(out / "firmware" / "manifest.json", manifest)
    sizes["firmware/manifest.json"] = len(manifest)
    return sizes


def _copy(src, dst):
    try:
        shutil.copyfile(src, dst)
    except OSError as exc:
        raise UserError("cannot copy %s to %s: %s" % (src, dst, exc)) from None
    return dst.stat().st_size


def make_server(directory, port=0, host="127.0.0.1"):
    """A quiet threaded static file server on ``directory`` (not started)."""
    import functools
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    class Handler(SimpleHTTPRequestHandler):
        extensions_map = dict(SimpleHTTPRequestHandler.extensions_map, **TYPES)

        def log_message(self, *args):
            pass

        def end_headers(self):
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

    try:
        return ThreadingHTTPServer((host, port), functools.partial(Handler, directory=str(directory)))
    except OSError as exc:
        raise UserError("cannot serve on %s:%d: %s" % (host, port, exc)) from None


def start_server(directory, port=0):
    """Serve ``directory`` from a daemon thread; returns (server, base URL)."""
    import threading

    server = make_server(directory, port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, "http://127.0.0.1:%d/" % server.server_address[1]


def run_web(args):
    from host_tools.core import plural

    if not args.build and not args.serve:
        raise UserError("give --build DIR or --serve (see web --help)")
    if args.port is not None and not 0 <= args.port <= 65535:
        raise UserError("--port must be 0..65535, got %d" % args.port)
    out = Path(args.build) if args.build else DEFAULT_DIR
    sizes = build_site(out)
    print("built %s: %s, %d KB" % (out, plural(len(sizes), "file"), (sum(sizes.values()) + 1023) // 1024),
          flush=True)
    if not args.serve:
        return 0
    server = make_server(out, 8000 if args.port is None else args.port)
    print("serving http://127.0.0.1:%d/ (Ctrl-C stops)" % server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def register(subparsers):
    p = subparsers.add_parser("web", help="build the handheld as a static web page, or serve it (make web)")
    p.add_argument("--build", metavar="DIR", help="write the site into DIR (with --serve: default build/web)")
    p.add_argument("--serve", action="store_true", help="build, then serve it on 127.0.0.1")
    p.add_argument("--port", type=int, help="port for --serve (default 8000)")
    p.set_defaults(func=run_web)
