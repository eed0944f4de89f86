"""`make test-cluster`: the tiny synthetic study on a real single-node SLURM cluster, against a local run.

Scale-out is tested by running it: this script installs Debian's `slurm-wlm` and `munge` if they are
missing (apt-get, as root), starts a private `munged`, `slurmctld` and `slurmd` for one node (this host:
its CPUs from `slurmd -C`, its memory less a margin; no accounting, `proctrack/linuxproc`, `task/none`),
waits until the node is idle, and runs the tiny synthetic study of tests/workflow/synthetic_study.py (the
one test_workflow_e2e.py checks) twice in separate study directories: locally (`snakemake --cores 2`)
and through SLURM (`--workflow-profile profiles/slurm`, the profile as users get it; its partition is
named `compute` here and its placeholder account passes, see below). Then every file under `results/`
but `results/logs/` and `results/benchmarks/` must be byte-for-byte the same in both, and so must
`resources/`. The daemons are stopped at the end, whatever happened, and the temporary directory is
removed after a pass (kept, with the daemons' logs and the runs' output, after a failure).
Exit status 0 when the outputs are equal, 1 when not or a run failed, 2 when the cluster could not be
set up.

Everything the cluster writes (munge key and socket, state, spool, logs, the two study directories)
is in one temporary directory, except `/etc/slurm/slurm.conf`: the slurm-jobstep plugin (0.6.1) runs
each job's `srun` with every `SLURM_*` variable removed from its environment, `SLURM_CONF` included, so
`srun` inside a job finds only the compiled-in default path. The script writes that file with a marker
line, refuses to touch one without it (a real cluster's), and removes it when it stops.

The profile's placeholder account (`your-account`) is kept: without accounting, `sacctmgr` fails and
`sshare` answers nothing, so snakemake-executor-plugin-slurm 2.8.0 proceeds "without account
validation" and passes `-A your-account`, which slurmctld accepts (no AccountingStorageEnforce). The
only extra option is `--slurm-init-seconds-before-status-checks 2` (default 40 s, a wait that would
dominate the tiny jobs).

    python tools/test_cluster.py [--keep]      (root; `make test-cluster`)
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

import debian_packages  # tools/, this script's directory

REPO = Path(__file__).resolve().parents[1]
PACKAGES = ["slurm-wlm", "munge"]
SLURM_CONF = Path("/etc/slurm/slurm.conf")
MARKER = "# Written by mtmeta's tools/test_cluster.py for a temporary test cluster; removed when it stops."
PARTITION = "compute"  # the partition profiles/slurm/config.yaml names
PORTS = (6817, 6818)  # slurmctld, slurmd (SLURM's defaults)
EXCLUDED = ("logs", "benchmarks", "cache")  # under results/: run-dependent (times, host names, job ids), or no result
CODE = ("Snakefile", "src", "workflow", "profiles")  # what the two runs execute, from this working tree


class SetupError(Exception):
    """The cluster could not be set up (exit status 2)."""


def log(message: str) -> None:
    print(f"test-cluster: {message}", flush=True)


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, text=True, capture_output=True, **kwargs)


def install_packages() -> str:
    """apt-get install what is missing of PACKAGES (tools/debian_packages.py); what was done, for the summary."""
    try:
        return debian_packages.install(PACKAGES)
    except debian_packages.PackageError as error:
        raise SetupError(str(error)) from None


def check_free() -> None:
    """Refuse to run beside another SLURM: its config file or its ports."""
    if SLURM_CONF.exists() and MARKER not in SLURM_CONF.read_text(errors="replace"):
        raise SetupError(f"{SLURM_CONF} exists and was not written by this script: is a real SLURM set up here?")
    for port in PORTS:
        with socket.socket() as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                probe.bind(("", port))
            except OSError as error:
                raise SetupError(f"port {port} is in use ({error}): is a SLURM daemon running?") from error


def node_line() -> str:
    """This host as a SLURM node: `slurmd -C`'s line (CPUs, sockets, cores, threads), its memory less a
    margin (slurmd drains a node that has less than its RealMemory), reached at 127.0.0.1."""
    result = run(["slurmd", "-C"])
    first = result.stdout.splitlines()[0] if result.returncode == 0 and result.stdout else ""
    if not first.startswith("NodeName="):
        raise SetupError(f"slurmd -C failed: {result.stdout}{result.stderr}")
    memory = int(re.search(r"RealMemory=(\d+)", first).group(1))
    usable = memory - max(512, memory // 20)
    return re.sub(r"RealMemory=\d+", f"RealMemory={usable}", first) + " NodeAddr=127.0.0.1 State=UNKNOWN"


def slurm_conf(tmp: Path, node: str) -> str:
    name = node.split()[0].split("=", 1)[1]
    return f"""{MARKER}
# Cluster files: {tmp}
ClusterName=mtmetatest
SlurmctldHost={name}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={tmp}/munge/munge.socket
StateSaveLocation={tmp}/state
SlurmdSpoolDir={tmp}/spool
SlurmctldPidFile={tmp}/slurmctld.pid
SlurmdPidFile={tmp}/slurmd.pid
SlurmctldLogFile={tmp}/log/slurmctld.log
SlurmdLogFile={tmp}/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
# squeue (the profile's status command) forgets a job MinJobAge seconds after it ends; the plugin wants >= 120.
MinJobAge=300
MailProg=/bin/true
{node}
PartitionName={PARTITION} Nodes={name} Default=YES MaxTime=INFINITE State=UP
"""


class Cluster:
    """munged, slurmctld and slurmd on this host, with their files in ``tmp``; stop() undoes start()."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.socket = tmp / "munge" / "munge.socket"
        self.pidfiles = []  # started daemons, stopped in reverse order
        self.wrote_conf = False

    def start(self) -> None:
        check_free()
        # munged wants its socket's directories reachable by all and writable by their owner only.
        self.tmp.chmod(0o755)
        for sub in ("munge", "state", "spool", "log"):
            (self.tmp / sub).mkdir(mode=0o755)
        key = self.tmp / "munge" / "munge.key"
        key.touch(mode=0o600)
        key.write_bytes(os.urandom(128))  # a fresh key for this cluster only
        self._daemon(["munged", f"--socket={self.socket}", f"--key-file={key}",
                      f"--pid-file={self.tmp}/munge/munged.pid", f"--log-file={self.tmp}/log/munged.log",
                      f"--seed-file={self.tmp}/munge/munged.seed"], self.tmp / "munge" / "munged.pid")
        check = subprocess.run(f"munge -n --socket={self.socket} | unmunge --socket={self.socket}",
                               shell=True, capture_output=True, text=True)
        if check.returncode != 0:
            raise SetupError(f"munge does not work: {check.stdout}{check.stderr}")
        node = node_line()
        SLURM_CONF.parent.mkdir(parents=True, exist_ok=True)
        SLURM_CONF.write_text(slurm_conf(self.tmp, node))
        self.wrote_conf = True
        self._daemon(["slurmctld"], self.tmp / "slurmctld.pid")
        self._daemon(["slurmd"], self.tmp / "slurmd.pid")
        self._wait_idle(node.split()[0].split("=", 1)[1])

    def _daemon(self, cmd: list[str], pidfile: Path) -> None:
        result = run(cmd)  # each daemon forks into the background and writes its pid file
        for _ in range(100):
            if pidfile.is_file() and pidfile.read_text().strip():
                break
            time.sleep(0.1)
        else:
            raise SetupError(f"{cmd[0]} did not start: {result.stdout}{result.stderr}{self.logs()}")
        self.pidfiles.append((cmd[0], pidfile))

    def _wait_idle(self, name: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        state = ""
        while time.monotonic() < deadline:
            state = run(["sinfo", "-h", "-N", "-n", name, "-o", "%T"]).stdout.strip()
            if state == "idle":
                return
            time.sleep(1)
        raise SetupError(f"node {name} is {state or 'unknown'}, not idle, after {timeout:.0f} s{self.logs()}")

    def logs(self) -> str:
        text = ""
        for path in sorted((self.tmp / "log").glob("*.log")):
            text += f"\n--- {path} (last lines)\n" + "\n".join(path.read_text(errors="replace").splitlines()[-15:])
        return text

    def stop(self) -> None:
        if any(name == "slurmctld" for name, _ in self.pidfiles):
            jobs = run(["squeue", "-h", "-o", "%i"]).stdout.split()
            if jobs:
                log(f"cancelling SLURM jobs {' '.join(jobs)}")
                run(["scancel", *jobs])
                time.sleep(3)
        for name, pidfile in reversed(self.pidfiles):
            try:
                pid = int(pidfile.read_text().strip())
                os.kill(pid, signal.SIGTERM)
            except (OSError, ValueError):
                continue
            for _ in range(100):  # up to 10 s
                try:
                    os.kill(pid, 0)
                except OSError:
                    break
                time.sleep(0.1)
            else:
                log(f"{name} (pid {pid}) did not stop on SIGTERM; killing it")
                os.kill(pid, signal.SIGKILL)
        self.pidfiles = []
        if self.wrote_conf and SLURM_CONF.exists() and MARKER in SLURM_CONF.read_text(errors="replace"):
            SLURM_CONF.unlink()
        self.wrote_conf = False


def run_study(cmd: list[str], env: dict[str, str], logfile: Path, what: str) -> float:
    """Run one snakemake, its output in ``logfile``; its wall time. Fails with the log's tail."""
    log(f"{what}: {' '.join(cmd)}")
    start = time.monotonic()
    with logfile.open("w") as out:
        process = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            status = process.wait()
        finally:
            if process.poll() is None:  # interrupted: Snakemake waits for its running jobs; stop() cancels the rest
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
    elapsed = time.monotonic() - start
    if status != 0:
        tail = "\n".join(logfile.read_text(errors="replace").splitlines()[-40:])
        raise RuntimeError(f"{what} failed (exit {status}, {elapsed:.0f} s); last lines of {logfile}:\n{tail}")
    log(f"{what}: done in {elapsed:.0f} s")
    return elapsed


def code_fingerprint() -> dict[str, str]:
    """sha256 of every file the runs execute: an edit in the working tree between the local and the SLURM
    run would show up as a difference that is not the cluster's."""
    files = {}
    for top in CODE:
        paths = [REPO / top] if (REPO / top).is_file() else sorted((REPO / top).rglob("*"))
        for path in paths:
            if path.is_file() and "__pycache__" not in path.parts:
                files[path.relative_to(REPO).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def output_files(workdir: Path) -> dict[str, Path]:
    """Every file the study wrote under results/ (but logs/ and benchmarks/) and resources/."""
    files = {}
    for top in ("results", "resources"):
        for path in sorted((workdir / top).rglob("*")):
            relative = path.relative_to(workdir)
            if path.is_file() and not (top == "results" and relative.parts[1] in EXCLUDED):
                files[relative.as_posix()] = path
    return files


def compare(local: Path, slurm: Path) -> tuple[int, list[str]]:
    """How many files were compared, and every difference."""
    a, b = output_files(local), output_files(slurm)
    problems = [f"only in the local run: {name}" for name in sorted(a.keys() - b.keys())]
    problems += [f"only in the SLURM run: {name}" for name in sorted(b.keys() - a.keys())]
    problems += [f"differs: {name}" for name in sorted(a.keys() & b.keys())
                 if a[name].read_bytes() != b[name].read_bytes()]
    return len(a.keys() & b.keys()), problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (always kept on failure)")
    args = parser.parse_args(argv)
    start = time.monotonic()
    if os.geteuid() != 0:
        print("test-cluster: needs root (apt-get install, SLURM daemons, /etc/slurm/slurm.conf)", file=sys.stderr)
        return 2

    def terminate(signum, frame):
        raise KeyboardInterrupt(f"interrupted by signal {signum}")

    signal.signal(signal.SIGTERM, terminate)
    sys.path.insert(0, str(REPO / "tests" / "workflow"))
    from synthetic_study import snakemake_command, snakemake_env, write_mirror, write_workdir

    times: dict[str, float] = {}
    tmp = Path(tempfile.mkdtemp(prefix="mtmeta-cluster."))
    cluster = Cluster(tmp)
    status, verdict = 1, "FAIL"
    try:
        step = time.monotonic()
        installed = install_packages()
        times["packages"] = time.monotonic() - step
        log(f"{installed} ({times['packages']:.0f} s)")
        step = time.monotonic()
        cluster.start()
        times["daemons"] = time.monotonic() - step
        log(f"munged, slurmctld and slurmd running, node idle ({times['daemons']:.0f} s); files in {tmp}")

        study = tmp / "study"
        mirror = write_mirror(study / "mirror")
        local, slurm = write_workdir(study / "local", mirror), write_workdir(study / "slurm", mirror)
        env = snakemake_env(study)
        code = code_fingerprint()
        times["local run"] = run_study(snakemake_command(REPO, local), env, tmp / "local.log", "local run")
        slurm_cmd = snakemake_command(REPO, slurm, "--workflow-profile", str(REPO / "profiles" / "slurm"),
                                      "--slurm-init-seconds-before-status-checks", "2")
        times["SLURM run"] = run_study(slurm_cmd, env, tmp / "slurm.log", "SLURM run")
        submitted = len(re.findall(r"has been submitted with SLURM jobid", (tmp / "slurm.log").read_text()))
        if submitted == 0:
            raise RuntimeError(f"the SLURM run submitted no job (see {tmp / 'slurm.log'})")

        compared, problems = compare(local, slurm)
        for problem in problems:
            log(problem)
        code_after = code_fingerprint()
        edited = sorted(name for name in code.keys() | code_after.keys() if code.get(name) != code_after.get(name))
        if edited:
            verdict = f"FAIL: the code changed between the runs ({', '.join(edited)}); the comparison proves nothing"
        elif not problems:
            status, verdict = 0, "PASS"
        verdict += (f": {compared} output files compared, {len(problems)} differences; the SLURM run submitted "
                    f"{submitted} jobs")
    except SetupError as error:
        status, verdict = 2, f"FAIL: cluster set-up: {error}"
    except KeyboardInterrupt as error:
        verdict = f"FAIL: {error or 'interrupted'}"
    except RuntimeError as error:
        verdict = f"FAIL: {error}"
    except Exception as error:  # a bug here: still stop the cluster, and show where
        traceback.print_exc()
        verdict = f"FAIL: {type(error).__name__}: {error}"
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)  # finish cleaning up
        cluster.stop()
        log("daemons stopped" + ("" if SLURM_CONF.exists() else f", {SLURM_CONF} removed"))
    if status == 0 and not args.keep:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        log(f"kept {tmp} (cluster logs in log/, the runs' output in local.log and slurm.log)")
    timing = ", ".join(f"{name} {seconds:.0f} s" for name, seconds in times.items())
    print(f"\ntest-cluster: {verdict}")
    print(f"test-cluster: {time.monotonic() - start:.0f} s in all ({timing})", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
