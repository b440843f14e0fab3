"""The command line as the CLI tests run it: `RUNNER` and `run` (an exit code checked, no traceback)."""

from __future__ import annotations

from typer.testing import CliRunner, Result

from cucumber_rules.cli import app

RUNNER = CliRunner(env={"COLUMNS": "200"})


def run(*args: str, input: str | None = None, code: int = 0) -> Result:
    """Invoke the app; check the exit code and that no traceback escaped."""
    result = RUNNER.invoke(app, list(args), input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    assert result.exit_code == code, result.output
    return result
