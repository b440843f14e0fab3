"""MkDocs hook: the files of the site that concern the table server.

- `schemas/...`: every JSON Schema of `cucumber_rules.schema.schema_files()` (`schemas/view.json`,
  `schemas/ladder/view.json`, ...), generated from the library when the site is built, so the files
  always describe the documents this version writes. The page `schema.md` links to them (the links
  are checked by the strict build).
- `api/server.json`: `{"server": false, ...}`. A table server (`cucumber-rules serve`) that serves
  the site answers this address itself with `"server": true`; a copy of the site that no server
  serves answers with this file, and the Play page says that playing with friends needs a server,
  without a failed request.

Registered in `mkdocs.yml` under `hooks:`.
"""

from __future__ import annotations

import json

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from cucumber_rules.schema import schema_files

#: Where the schema files live inside the site.
SCHEMA_DIR = "schemas"
#: What the Play page asks to learn whether a table server serves it.
SERVER_FILE = "api/server.json"


def on_files(files: Files, config: MkDocsConfig) -> Files:
    """Add the schema files and the server file to the site."""
    for path, text in schema_files().items():
        files.append(File.generated(config, f"{SCHEMA_DIR}/{path}", content=text))
    files.append(File.generated(config, SERVER_FILE, content=json.dumps({"server": False}) + "\n"))
    return files
