#!/usr/bin/env python3
"""Makes docs/lsp-screenshot.svg: real Neovim with the real `toscana lsp`, in a terminal.

    python3 docs/screenshot/make.py target/release/toscana

Neovim (`nvim`, 0.7 or later) runs in a pseudo-terminal on a copy of examples/shop.yaml, with
docs/screenshot/init.lua as its configuration, which starts the given `toscana lsp` for the
file. The script types what a person would: it misspells an input in a `get_input` (an
unsaved edit, which the server checks), moves to a node template's type and asks for hover.
pyte (`pip install pyte`) is the terminal the keystrokes' output is drawn on; its screen, cell
by cell with its colours, is then written as SVG. Nothing is drawn or edited by hand.

Not run by the tests (it takes seconds of wall-clock waits for the editor); run it again when
the server's hover or diagnostics change.
"""

import html
import os
import pathlib
import pty
import select
import shutil
import subprocess
import sys
import tempfile
import time

import pyte

ROOT = pathlib.Path(__file__).resolve().parents[2]
COLUMNS, ROWS = 176, 30
CELL_W, CELL_H = 8.4, 17
FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"

# The 16 ANSI colours (a dark theme) and the default foreground and background.
PALETTE = {
    "black": "#1e1e1e", "red": "#f44747", "green": "#6a9955", "brown": "#d7ba7d",
    "blue": "#569cd6", "magenta": "#c586c0", "cyan": "#4ec9b0", "white": "#d4d4d4",
    "brightblack": "#808080", "brightred": "#f44747", "brightgreen": "#b5cea8",
    "brightbrown": "#dcdcaa", "brightblue": "#9cdcfe", "brightmagenta": "#d670d6",
    "brightcyan": "#29b8db", "brightwhite": "#ffffff",
}
DEFAULT_FG, DEFAULT_BG = "#d4d4d4", "#1e1e1e"


def colour(name, default):
    if name == "default":
        return default
    if name in PALETTE:
        return PALETTE[name]
    if len(name) == 6 and all(c in "0123456789abcdefABCDEF" for c in name):
        return "#" + name.lower()
    return default


class Terminal:
    """Neovim in a pseudo-terminal, drawn on a pyte screen."""

    def __init__(self, argv, cwd, env):
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        pid, fd = pty.fork()
        if pid == 0:
            os.chdir(cwd)
            os.execvpe(argv[0], argv, env)
        self.pid, self.fd = pid, fd
        import fcntl, struct, termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))

    def pump(self, seconds):
        """Reads what the editor draws for `seconds`."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    data = os.read(self.fd, 65536)
                except OSError:
                    return
                self.stream.feed(data)
                # Answer the terminal queries Neovim makes (cursor position), as a terminal would.
                if b"\x1b[6n" in data:
                    y, x = self.screen.cursor.y + 1, self.screen.cursor.x + 1
                    os.write(self.fd, f"\x1b[{y};{x}R".encode())

    def wait_for(self, text, seconds=20):
        """Reads until `text` is on the screen."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(0.2)
            if any(text in line for line in self.screen.display):
                return
        sys.exit(f"gave up waiting for {text!r} on the screen:\n" + "\n".join(self.screen.display))

    def type(self, keys, settle=0.5):
        os.write(self.fd, keys.encode())
        self.pump(settle)


def svg(screen):
    width, height = COLUMNS * CELL_W, ROWS * CELL_H
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" font-family="{FONT}" font-size="14">',
        f'<rect width="100%" height="100%" fill="{DEFAULT_BG}"/>',
    ]
    for y in range(ROWS):
        line = screen.buffer[y]
        x = 0
        while x < COLUMNS:
            char = line[x]
            fg = colour(char.fg, DEFAULT_FG)
            bg = colour(char.bg, DEFAULT_BG)
            if char.reverse:
                fg, bg = bg, fg
            # A run of cells with the same look is one rectangle and one text.
            end = x + 1
            while end < COLUMNS:
                other = line[end]
                same = (other.fg, other.bg, other.reverse, other.bold, other.italics, other.underscore)
                if same != (char.fg, char.bg, char.reverse, char.bold, char.italics, char.underscore):
                    break
                end += 1
            top = y * CELL_H
            if bg != DEFAULT_BG:
                out.append(
                    f'<rect x="{x * CELL_W:.1f}" y="{top}" width="{(end - x) * CELL_W:.1f}" '
                    f'height="{CELL_H}" fill="{bg}"/>'
                )
            text = "".join(line[i].data for i in range(x, end))
            if text.strip():
                style = ""
                if char.bold:
                    style += ' font-weight="bold"'
                if char.italics:
                    style += ' font-style="italic"'
                if char.underscore:
                    style += ' text-decoration="underline"'
                out.append(
                    f'<text x="{x * CELL_W:.1f}" y="{top + CELL_H - 4}" fill="{fg}"{style} '
                    f'xml:space="preserve" textLength="{(end - x) * CELL_W:.1f}">'
                    f"{html.escape(text)}</text>"
                )
            x = end
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = str(pathlib.Path(sys.argv[1]).resolve())
    work = pathlib.Path(tempfile.mkdtemp(prefix="toscana-screenshot-"))
    shutil.copy(ROOT / "examples" / "shop.yaml", work / "shop.yaml")
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "TOSCANA_BIN": binary,
        "XDG_CACHE_HOME": str(work / "cache"),
        "XDG_STATE_HOME": str(work / "state"),
        "XDG_DATA_HOME": str(work / "data"),
    }
    init = str(ROOT / "docs" / "screenshot" / "init.lua")
    terminal = Terminal(["nvim", "--clean", "-u", init, "shop.yaml"], work, env)
    terminal.wait_for("tosca_definitions_version")
    terminal.pump(2)
    # The edit: `front_ends` loses its `s` in `{ get_input: front_ends }`.
    terminal.type("/get_input: front_ends\r")
    terminal.type("2wex")
    terminal.wait_for("undefined input")
    # Hover on the type of `web_vm`, with the lines from `nginx:` on in view.
    terminal.type(":38\rzt")
    terminal.type("/tosca.nodes.Compute\r")
    terminal.type("K")
    terminal.wait_for("derived from")
    terminal.pump(1)
    target = ROOT / "docs" / "lsp-screenshot.svg"
    target.write_text(svg(terminal.screen))
    print("\n".join(terminal.screen.display))
    os.write(terminal.fd, b"\x1b:qa!\r")
    terminal.pump(1)
    shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
