"""Verification layer: JSBSim itself flown beside flightsim, and what is measured between them.

Above the simulation, below the commands: it may import the math, the physics and the simulation, and the
``jsbsim`` package (its ``FGFDMExec``); nothing below imports it, so flying an aircraft never loads JSBSim's
extension.  The tests, the benchmarks and ``flightsim verify`` use it.

* :mod:`~flightsim.verify.oracle` - JSBSim flying the same aircraft, flightsim's blocks computed from its state
  frame by frame (property replays of the aerodynamics, the flight controls and the engines);
* :mod:`~flightsim.verify.flight_oracle` - JSBSim trimmed and flown on a flat, non-rotating planet: the
  trajectory oracle, and how two trajectories are compared;
* :mod:`~flightsim.verify.flight_check` - a JSBSim aircraft trimmed in flightsim and in JSBSim and flown
  through the same 30 s doublet in both (:func:`~flightsim.verify.flight_check.compare_flight`);
* :mod:`~flightsim.verify.flight_table` - one aircraft's row of README's "Flown against JSBSim" table: its
  condition (:data:`~flightsim.verify.flight_table.CONDITIONS`), what is measured and how the row reads.
"""
