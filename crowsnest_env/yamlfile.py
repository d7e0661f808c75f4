"""Reading YAML that a user (or anyone) wrote: bounded, plain data, one-line errors.

:func:`read_yaml` and :func:`parse_yaml` are ``yaml.safe_load`` with limits, since a small
file can still cost a lot: the file is at most :data:`MAX_YAML_BYTES`, nested at most
:data:`MAX_YAML_DEPTH` deep, and may use no anchors or aliases (``&a`` / ``*a``: eight levels
of aliases to a list make a "billion laughs" that expands to hundreds of megabytes when
printed). Every problem is a ValueError naming the file, with the line and column of a
syntax error, on one line.
"""

from __future__ import annotations

import os
from typing import Any

import yaml

MAX_YAML_BYTES = 1 << 20
"""largest YAML file read (1 MiB): configs and variant files are a few hundred bytes"""
MAX_YAML_DEPTH = 32
"""deepest nesting of lists and mappings"""


class _BoundedLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses anchors and aliases and nesting beyond MAX_YAML_DEPTH."""

    def __init__(self, stream: str):
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise yaml.composer.ComposerError(None, None, "anchors and aliases (&name, *name) are not allowed",
                                              event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.composer.ComposerError(None, None, f"nested more than {MAX_YAML_DEPTH} levels deep",
                                                  event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


def _one_line(err: yaml.YAMLError) -> str:
    if isinstance(err, yaml.MarkedYAMLError) and err.problem:
        mark = err.problem_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark is not None else ""
        return f"{err.problem}{where}"
    return " ".join(str(err).split())


def parse_yaml(text: str, source: str) -> Any:
    """The plain data of YAML ``text`` (read from ``source``, named in errors); ValueError if it is
    not valid YAML, is too large, too deep, or uses anchors/aliases."""
    if len(text) > MAX_YAML_BYTES:
        raise ValueError(f"{source}: larger than {MAX_YAML_BYTES:,} characters; not a config or variant file")
    loader = _BoundedLoader(text)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as err:
        raise ValueError(f"{source}: not valid YAML: {_one_line(err)}") from None
    finally:
        loader.dispose()


def read_yaml(path: str | os.PathLike[str]) -> Any:
    """:func:`parse_yaml` of the file at ``path``; ValueError naming the file if it cannot be read."""
    source = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_YAML_BYTES + 1)
    except OSError as err:
        raise ValueError(f"cannot read {source!r}: {err.strerror or err}") from None
    if len(data) > MAX_YAML_BYTES:
        raise ValueError(f"{source}: larger than {MAX_YAML_BYTES:,} bytes; not a config or variant file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{source}: not a text file (not UTF-8 at byte {err.start})") from None
    return parse_yaml(text, source)


__all__ = ["MAX_YAML_BYTES", "MAX_YAML_DEPTH", "parse_yaml", "read_yaml"]
