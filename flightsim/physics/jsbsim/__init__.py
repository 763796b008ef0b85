"""JSBSim's aircraft read from the ``jsbsim`` package's XML, computed by flightsim.

JSBSim (Berndt 2004; https://jsbsim.sourceforge.net) keeps an aircraft as
data: metrics, mass balance, a flight control system, propulsion and an
aerodynamics block of ``<function>`` trees over named properties.  This
package reads those files and compiles what they compute into flat arrays
that one compiled interpreter evaluates (the reference checked against
JSBSim), and, the first time an aircraft flies on a machine, into numba
source compiled and cached per aircraft (what flies):

* :mod:`~flightsim.physics.jsbsim.xmlfile` — where the package's aircraft
  are, the XML read with JSBSim's ``file=`` includes and unit conversions;
* :mod:`~flightsim.physics.jsbsim.program` — ``<function>`` and ``<table>``
  elements compiled to a program of a small stack machine, and the compiled
  machine (:func:`~flightsim.physics.jsbsim.program.run`);
* :mod:`~flightsim.physics.jsbsim.native` — the same programs as numba source, one compiled
  function per block, called by address from the compiled loads;
* :mod:`~flightsim.physics.jsbsim.aero` — the ``<aerodynamics>`` block: its
  axes, the wind-to-body rotation and the moment transfer from the
  aerodynamic reference point to the centre of gravity, as JSBSim's
  ``FGAerodynamics::Run``;
* :mod:`~flightsim.physics.jsbsim.fcs` — ``<flight_control>``: the algebraic components, in the same machine;
* :mod:`~flightsim.physics.jsbsim.atmosphere`, :mod:`~flightsim.physics.jsbsim.auxiliary` — JSBSim's
  standard atmosphere and the properties it derives from the state (α, β, q̄, Mach, ...);
* :mod:`~flightsim.physics.jsbsim.propulsion` — turbines with direct thrusters, and piston engines
  (:mod:`~flightsim.physics.jsbsim.piston`) with fixed-pitch propellers (:mod:`~flightsim.physics.jsbsim.propeller`);
* :mod:`~flightsim.physics.jsbsim.model` — an aircraft file made a flightsim ``Aircraft`` (mass, inertia, gear,
  the compiled blocks over one property array) and :mod:`~flightsim.physics.jsbsim.loads`, its loads inside
  flightsim's compiled step (once per step, and at every integrator stage);
* :mod:`~flightsim.physics.jsbsim.mass` — ``<metrics>`` and
  ``<mass_balance>``: the reference lengths and areas, the weight, the centre
  of gravity (empty weight, point masses and tank contents) and the inertia.

Frames and units are JSBSim's inside this package: body x forward, y right,
z down; the structural frame x aft, y right, z up, in inches; feet, pounds,
slugs, radians.  Anything the files ask for that is not implemented is an
:class:`~flightsim.errors.InputError` naming the file, the element and what
is missing — never a silent approximation.

JSBSim itself, flown beside this computation (property replays, trim and flight on a flat planet), is the
verify layer's (:mod:`flightsim.verify`), above the simulation: nothing here runs JSBSim, and loading an
aircraft does not import the ``jsbsim`` extension (only its data folder is found).  How the app draws an aircraft,
from its metrics, is the scene's (:mod:`flightsim.app.scene.jsbsim_shape`), read from the file when it draws.
"""
