"""`python -m cucumber_rules`: the `cucumber-rules` command line (needs the `cli` extra)."""

from ._cli_entry import main

if __name__ == "__main__":
    main()
