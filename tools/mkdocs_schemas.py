"""MkDocs hook: publish the JSON Schemas of `cucumber_rules.schema` as files of the site.

Every schema `cucumber_rules.schema.schema_files()` returns becomes a file under `schemas/`
(`schemas/view.json`, `schemas/ladder/view.json`, ...), generated from the library when the
site is built, so the files always describe the documents this version writes. The page
`schema.md` links to them (the links are checked by the strict build).

Registered in `mkdocs.yml` under `hooks:`.
"""

from __future__ import annotations

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from cucumber_rules.schema import schema_files

#: Where the schema files live inside the site.
SCHEMA_DIR = "schemas"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add every schema file to the site."""
    for path, text in schema_files().items():
        files.append(File.generated(config, f"{SCHEMA_DIR}/{path}", content=text))
    return files
