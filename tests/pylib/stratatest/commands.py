"""Running strata and the programs it records, each command's output kept
in files beside the profiles, and the setup errors that stop a script
(exit status 99 in every script that uses them)."""

import json
import os
import shlex
import subprocess
import time

# The time units strata record and massif take (--time-unit=).
TIME_UNITS = ("i", "ms", "B")

# Put before a command that should leave the machine to others (recordings
# of the evaluation scripts).
NICE = ["nice", "-n", "10"]


class SetupError(Exception):
    """The setup is broken: a command, a program or a file is missing or
    fails; the script says why on stderr and exits 99."""


class CommandFailed(SetupError):
    """A command exited with a status other than 0."""

    def __init__(self, command, status, log):
        super().__init__(f"exit status {status}: {shlex.join(command)} (see {log})")
        self.status = status


def require_executable(path, advice, where=None):
    """Raises SetupError "[WHERE: ]PATH is missing: ADVICE" unless PATH is
    an executable file."""
    if not os.access(path, os.X_OK):
        raise SetupError(f"{where + ': ' if where else ''}{path} is missing: {advice}")


def run_logged(command, log, stdout=None, cwd=None, env=None, timeout=None):
    """Runs command with its stderr in the file log and its stdout in the
    file stdout (in log too when None; os.devnull to drop it).  Returns
    (exit status, seconds); raises SetupError when it runs out of time."""
    start = time.time()
    with open(log, "w", encoding="utf-8") as err:
        out = open(stdout, "wb") if stdout else err
        try:
            done = subprocess.run(command, cwd=cwd, env=env, stdout=out, stderr=err,
                                  timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            raise SetupError(f"timed out after {timeout} s: {shlex.join(command)}")
        finally:
            if stdout:
                out.close()
    return done.returncode, time.time() - start


def run_checked(command, log, stdout=os.devnull, cwd=None, env=None, timeout=None):
    """run_logged, its stdout dropped unless given; raises CommandFailed
    when the command fails.  Returns the seconds it took."""
    status, seconds = run_logged(command, log, stdout, cwd, env, timeout)
    if status != 0:
        raise CommandFailed(command, status, log)
    return seconds


def record_command(strata, profile, program, options=()):
    """strata record OPTIONS -o PROFILE -- PROGRAM..., program the command
    line to record."""
    return [strata, "record", *options, "-o", profile, "--", *program]


def read_json(path, hint=""):
    """The JSON document in path; SetupError "PATH: WHY[ HINT]" when it is
    missing or does not parse."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise SetupError(f"{path}: {e}{' ' + hint if hint else ''}")


def report_json(strata, profile, out, log, prefix=(), timeout=None):
    """strata report --json PROFILE, run after PREFIX (NICE), its output in
    the file out and its stderr in log.  Returns (the parsed report,
    seconds); raises CommandFailed when it fails, SetupError when its
    output does not parse."""
    seconds = run_checked([*prefix, strata, "report", "--json", profile], log, stdout=out,
                          timeout=timeout)
    return read_json(out), seconds
