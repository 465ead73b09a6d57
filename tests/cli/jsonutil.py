"""Helpers the CLI tests share for comparing JSON outputs."""


def drop(o, key):
    """Remove `key` at every depth (fields that name the input itself)."""
    if isinstance(o, dict):
        o.pop(key, None)
        for v in o.values():
            drop(v, key)
    elif isinstance(o, list):
        for v in o:
            drop(v, key)
    return o
