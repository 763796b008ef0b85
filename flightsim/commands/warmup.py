"""``flightsim warmup``: compile all of flightsim's physics ahead, once, with a progress bar.

A first start compiles only what it flies (the aircraft's loads and one
integrator); ``warmup`` compiles the rest too, so switching integrators live,
the ghost, trim and modes, the spin lab and the Gymnasium batch never compile
again on this machine; the flights stand on the world's terrain, as ``fly`` and
``simulate`` fly by default (``--terrain off``, the plane, compiles the first
time it flies); on the round planet it compiles the loads and the
``euler`` and ``rk4`` steps (another integrator's step compiles the first time
it flies there).  JSBSim's aircraft are not included: each has its own
generated programs, compiled the first time that aircraft flies.
"""

from __future__ import annotations

import argparse
import sys
import time

__all__ = ["add_arguments", "run"]

BAR = 30


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``warmup`` takes no options."""


def _tasks():
    """``(what, callable)`` in the order compiled: each integrator's step, then what else the commands run."""
    from flightsim.physics import trim as trimming
    from flightsim.physics.integrators import INTEGRATORS
    from flightsim.physics.modes import dynamic_modes, linearize
    from flightsim.physics.rigidbody import propagate
    from flightsim.simulation.batch import BatchSimulation
    from flightsim.simulation.flight import Simulation, resolve_aircraft

    sim = []

    def flight():
        sim.append(Simulation(integrator="euler", terrain="world"))
        sim[0].advance(0.05)

    def trim_and_modes():
        aircraft = resolve_aircraft("c172")
        point = trimming.trim(aircraft, 160.0, altitude=3000.0)
        dynamic_modes(linearize(point, aircraft))

    def batch():
        b = BatchSimulation(2, integrator="rk4")
        b.step(2)

    def round_planet():
        flight = Simulation(integrator="euler", planet="round", terrain="world")
        flight.advance(0.05)
        flight.warm_up("rk4")

    def spin():
        for name in INTEGRATORS:
            propagate([1.0, 0.0, 0.0, 0.0], [0.1, 2.0, 0.1], [[1.0, 0, 0], [0, 2.0, 0], [0, 0, 3.0]], 0.01, 2, name)

    return [("the book's airplane, euler", flight),
            *((f"integrator {name}", lambda name=name: sim[0].warm_up(name)) for name in list(INTEGRATORS)[1:]),
            ("trim and modes (the 172R)", trim_and_modes),
            ("the batch (Gymnasium)", batch),
            ("the round planet (euler, rk4)", round_planet),
            ("the spin lab", spin)]


def _bar(done, total):
    filled = BAR * done // total
    return f"[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total}"


def run(args) -> int:
    """Compile everything; print a progress bar on stderr and how long it took on stdout."""
    from flightsim.physics.compiling import CompileWatch

    start = time.perf_counter()
    tty = sys.stderr.isatty()
    tasks = _tasks()
    with CompileWatch() as watch:
        for k, (what, task) in enumerate(tasks):
            line = f"{_bar(k, len(tasks))} {what}"
            print(f"\r{line:<80}" if tty else line, end="" if tty else "\n", file=sys.stderr, flush=True)
            task()
    if tty:
        print(f"\r{_bar(len(tasks), len(tasks)):<80}", file=sys.stderr)
    seconds = time.perf_counter() - start
    if watch.compiled:
        print(f"compiled {watch.compiled} functions in {seconds:.1f} s: nothing is left to compile on this machine")
    else:
        print(f"already compiled: nothing to do ({seconds:.1f} s)")
    return 0
