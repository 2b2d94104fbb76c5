"""The leak findings of `strata report --json` (its "leaks" and
"small_leaks"): what they are called, and whether they name a function."""

import re


def headline_name(finding):
    """The name of the finding's headline frame (its first frame in the
    program's own code), "?" when it has none."""
    frame = finding.get("headline")
    return frame["name"] if frame else "?"


def frame_names(finding):
    """The names of the headline and of the frames of the finding's main
    part, headline first."""
    names = [finding["headline"]["name"]] if finding.get("headline") else []
    return names + [f["name"] for f in finding.get("frames", [])]


def names_function(name, function):
    """Whether the frame name is function; a C++ name matches with its scope
    and parameters ("(anonymous namespace)::f(long)" is f).  A bare name (no
    scope, no parameters) matches a scoped function by its last component:
    Valgrind names an inlined frame by its DWARF name alone ("decode" for
    Consumer::decode)."""
    pattern = re.compile(r"(?:^|::)" + re.escape(function) + r"(?:\(|<|$)")
    if pattern.search(name):
        return True
    if "::" in name or "(" in name or "::" not in function:
        return False
    last = re.split(r"[(<]", function, maxsplit=1)[0].rsplit("::", 1)[-1]
    return name == last


def names_any(names, functions):
    """Whether one of the frame names is one of the functions."""
    return any(names_function(n, f) for n in names for f in functions)


def shorten(text, width):
    """text, cut to width characters with "..." when longer."""
    return text if len(text) <= width else text[:width - 3] + "..."
