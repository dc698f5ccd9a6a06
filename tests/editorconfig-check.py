#!/usr/bin/python3
"""Every shell script of the tree against .editorconfig: the indentation style it names,
no trailing white space, a final newline.  The properties come from the EditorConfig library
(python3-editorconfig), so the globs mean what they mean to an editor.  A shell script
(by extension or #! line) that .editorconfig gives no indent_style fails: name it there.
Here-documents are skipped for indentation (their text is another language's).
    tests/editorconfig-check.py SOURCE-ROOT"""
import os
import re
import subprocess
import sys

try:
    import editorconfig
except ImportError:
    sys.exit("editorconfig-check: no EditorConfig library; install python3-editorconfig "
             "(tests/deps.txt)")

SHEBANG = re.compile(rb"^#!\s*\S*/(env\s+)?(ba|da)?sh\b")
BLOCK = re.compile(r"(^|[\s;])(\{|\(|then|do|else|in)$")
HEREDOC = re.compile(r"<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")


def tree_files(root):
    """The files git tracks or would (not ignored), or, outside a checkout, every file but build trees."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], check=True,
                             capture_output=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, dirs, files in os.walk(root):
            dirs[:] = [x for x in dirs if x != ".git" and
                       not os.path.exists(os.path.join(d, x, "meson-private"))]
            found += [os.path.relpath(os.path.join(d, f), root) for f in files]
        return found


def is_shell(path):
    if path.endswith(".sh"):
        return True
    try:
        with open(path, "rb") as f:
            return bool(SHEBANG.match(f.readline()))
    except OSError:
        return False


def indent_ok(lead, prev, props):
    """tab: tabs, then spaces only to align a continued line: fewer than a tab's width, and
    never on the first line of a block (after a line ending in {, (, then, do, else, in);
    space: no tab at all."""
    if props.get("indent_style") != "tab":
        return "\t" not in lead
    rest = lead.lstrip("\t")
    if not rest:
        return True
    return ("\t" not in rest and len(rest) < int(props.get("tab_width", "8")) and
            not BLOCK.search(prev))


def check(name, path, props):
    problems = []
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    lines = text.split("\n")
    if props.get("insert_final_newline") == "true" and text and not text.endswith("\n"):
        problems.append(f"{name}:{len(lines)}: no newline at the end of the file")
    end = None  # the word that ends the here-document we are in
    prev = ""  # the last line with code, for the block rule
    for no, line in enumerate(lines[:-1] if text.endswith("\n") else lines, 1):
        if props.get("trim_trailing_whitespace") == "true" and line != line.rstrip():
            problems.append(f"{name}:{no}: trailing white space")
        if end is not None:
            if (line.lstrip("\t") if end[0] else line) == end[1]:
                end = None
            continue
        lead = line[:len(line) - len(line.lstrip(" \t"))]
        if line.strip() and not indent_ok(lead, prev, props):
            want = "tabs" if props["indent_style"] == "tab" else "spaces"
            problems.append(f"{name}:{no}: indented with {lead!r}, .editorconfig asks {want}")
        if line.strip() and not line.lstrip().startswith("#"):
            prev = line.rstrip()
        m = HEREDOC.search(line.replace("<<<", ""))
        if m and not line.lstrip().startswith("#"):
            end = (m.group(1) == "-", m.group(3))
    return problems


def main(root):
    root = os.path.abspath(root)
    problems, checked = [], 0
    for name in sorted(tree_files(root)):
        path = os.path.join(root, name)
        if os.path.islink(path) or not os.path.isfile(path) or not is_shell(path):
            continue
        props = editorconfig.get_properties(path)
        if props.get("indent_style") not in ("tab", "space"):
            problems.append(f"{name}: a shell script without indent_style in .editorconfig; "
                            "add its path to the shell section there")
            continue
        checked += 1
        problems += check(name, path, props)
    for p in problems:
        print(f"editorconfig-check: {p}")
    print(f"editorconfig-check: {checked} shell scripts, {len(problems)} problems")
    return 1 if problems or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
