"""The pilot inputs' layout in the loads' controls array: one definition for the loads and the gear.

The loads (:mod:`flightsim.physics.aero`), the landing gear
(:mod:`flightsim.physics.gear`) and the simulation's controls
(:class:`flightsim.simulation.controls.Controls`) read the same float array,
``LoadParams.controls``, by these indices.  Throttle, brakes 0..1; elevator,
aileron, rudder, flaps −1..1; parking brake, engine and gear 0 or 1.
"""

#: Pilot inputs in the order of the controls array (the names and order of
#: :class:`flightsim.simulation.controls.Controls`): the five the elements follow, then the wheel brakes
#: (0..1), the parking brake (0 or 1) and the engine (1 running, 0 off: mixture cut, magnetos off); then the left
#: and right toe brakes on their own (0..1: rudder pedals' differential brakes); then the gear lever (1 down, 0 up:
#: a JSBSim aircraft's ``gear/gear-cmd-norm`` where its gear retracts), added last.
INPUTS = ("throttle", "elevator", "aileron", "rudder", "flaps", "brake", "parking_brake", "engine", "brake_left",
          "brake_right", "gear")
#: Entries of the throttle, rudder (nose-wheel steering, differential braking) and brakes in the controls array.
C_THROTTLE = INPUTS.index("throttle")
C_RUDDER = INPUTS.index("rudder")
C_BRAKE = INPUTS.index("brake")
C_PARKING_BRAKE = INPUTS.index("parking_brake")
C_ENGINE = INPUTS.index("engine")
C_BRAKE_LEFT = INPUTS.index("brake_left")
C_BRAKE_RIGHT = INPUTS.index("brake_right")
C_GEAR = INPUTS.index("gear")
