"""cgen.py: small helpers to write C: @NAME@ substitution and the leak branch
every component writes the same way."""

import re


def sub(text, env):
    """Replaces each @NAME@ of text by env[NAME] (an unknown name is a bug)."""
    def one(m):
        key = m.group(1)
        if key not in env:
            raise KeyError(f"@{key}@ is not set")
        return str(env[key])
    return re.sub(r"@([A-Za-z_][A-Za-z0-9_]*)@", one, text)


def indent(text, spaces):
    pad = " " * spaces
    return "\n".join(pad + line if line.strip() else line for line in text.split("\n"))


def branch(conditions, then_code, else_code, spaces=3):
    """`if (c1 && c2) { then } else { else }`, or just then_code when there is
    no condition; both bodies are C statements without the outer indent."""
    conditions = [c for c in conditions if c]
    if not conditions:
        return indent(then_code, spaces)
    pad = " " * spaces
    out = f"{pad}if ({' && '.join(conditions)}) {{\n{indent(then_code, spaces + 3)}\n{pad}}}"
    if else_code:
        out += f" else {{\n{indent(else_code, spaces + 3)}\n{pad}}}"
    return out
