#!/usr/bin/python3
"""Serves the browser page cross-origin isolated, so that its network runs multi-threaded.

usage: python3 scripts/serve_web.py [--port N] [--bind ADDRESS] [DIR]

A static file server (Python's http.server) for DIR (default: build/web-page of this source
tree) that sends every response with
  Cross-Origin-Opener-Policy: same-origin
  Cross-Origin-Embedder-Policy: require-corp
which makes the page cross-origin isolated (self.crossOriginIsolated is true): browsers then
allow SharedArrayBuffer, and onnxruntime-web runs the network on several threads. Served
by `python3 -m http.server` instead, the page works the same on one thread. .wasm files go
out as application/wasm and .mjs files as text/javascript (ES modules need a JavaScript
type). Everything the page loads must come from this server (require-corp refuses
cross-origin files that do not opt in), so serve the models from DIR or below it.

--port N: the port (default 8000; 0 picks a free one, printed on the first line).
--bind ADDRESS: the address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).
Stops on Ctrl-C. Exit status 2 when DIR is missing or the port cannot be used.
"""
import argparse
import functools
import http.server
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The headers that make a page cross-origin isolated (https://web.dev/coop-coep/).
ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}


class IsolatedHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler that adds ISOLATION_HEADERS and the page's MIME types."""

    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".json": "application/json",
    }

    def end_headers(self):
        for name, value in ISOLATION_HEADERS.items():
            self.send_header(name, value)
        super().end_headers()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir", nargs="?", default=os.path.join(ROOT, "build", "web-page"),
                        help="folder to serve (default: build/web-page)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000, 0: any)")
    parser.add_argument("--bind", default="127.0.0.1", help="address (default 127.0.0.1)")
    args = parser.parse_args()
    if not os.path.isdir(args.dir):
        print("serve_web: %s: no such folder (build the page: cmake --build build --target web)"
              % args.dir, file=sys.stderr)
        return 2
    if not 0 <= args.port <= 65535:
        print("serve_web: --port %d: expected 0 to 65535" % args.port, file=sys.stderr)
        return 2
    handler = functools.partial(IsolatedHandler, directory=args.dir)
    try:
        server = http.server.ThreadingHTTPServer((args.bind, args.port), handler)
    except OSError as e:
        print("serve_web: cannot listen on %s port %d: %s" % (args.bind, args.port, e),
              file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    print("Serving HTTP on %s port %d (http://%s:%d/) from %s, cross-origin isolated "
          "(COOP same-origin, COEP require-corp)" % (host, port, host, port, args.dir),
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
