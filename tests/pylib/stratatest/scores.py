"""The numbers the evaluation scripts print, and the -k patterns that select
what they run."""

import fnmatch


def ratio(num, den):
    """num / den, None when den is 0."""
    return None if den == 0 else num / den


def show(value, num=None, den=None):
    """A ratio with two decimals, and "(NUM/DEN)" when given; "n/a" for None."""
    if value is None:
        return "n/a"
    return f"{value:.2f}" + (f" ({num}/{den})" if num is not None else "")


def share(num, den):
    """"0.75 (3/4)", or "n/a" when den is 0."""
    return show(ratio(num, den), num, den)


def name_matches(name, pattern):
    """A -k pattern: with * ? or [ a glob the whole name must match, else a
    part of the name."""
    if any(c in pattern for c in "*?["):
        return fnmatch.fnmatchcase(name, pattern)
    return pattern in name


def selected(items, patterns, matches=lambda item, p: name_matches(item.name, p)):
    """The items one of the patterns matches (all of them without patterns),
    in their order."""
    if not patterns:
        return items
    return [x for x in items if any(matches(x, p) for p in patterns)]
