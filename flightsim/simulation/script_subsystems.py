"""An ``<output>``'s subsystem switches (``<rates> ON </rates>`` …): JSBSim's fixed columns, as flightsim gives them.

JSBSim's ``FGOutputType::Load`` turns each switch whose text is ``ON`` into a group of columns, which
``FGOutputTextFile`` writes after ``Time`` in a fixed order, whatever the order in the file: simulation (none),
aerosurfaces, rates, velocities, forces, moments, atmosphere, massprops, position (JSBSim's ``ssPropagate``),
coefficients (or ``<aerodynamics>``), fcs, ground_reactions, propulsion; then the ``<property>`` entries.  Each
column here is the JSBSim property ``FGOutputTextFile::Print`` writes the value of (its header as JSBSim writes
it, a scale where the column's unit is not the property's, and the format JSBSim prints it with: a vector's 16
significant digits, a scalar's 10, 12 or 14, the inertia tensor's 10 in 12 characters, a function's 6).  The
coefficients are the aircraft's aerodynamic functions (``FGAerodynamics::GetAeroFunctionStrings``: each axis's
in axis order, then the block's own).

A column whose property flightsim does not define for the flight is left out, and :func:`columns` names it so
that the run says so in one line: always the body acceleration, the aerodynamic moments about the moment
reference centre and the quaternions (no JSBSim property), the air's viscosity and turbulence, and the FCS
components' (``<fcs>``), the gear's (``<ground_reactions>``) and the engines' (``<propulsion>``) labelled values;
the accelerations, forces and moments where the aircraft's own property array does not hold them (it holds what
its functions read).  The buoyant forces and moments are the gas cells' (``forces/fb[xyz]-buoyancy-lbs``,
``moments/[lmn]-buoyancy-lbsft``), 0 for an aircraft without cells, as JSBSim's.
"""

from __future__ import annotations

import math

__all__ = ["SWITCHES", "columns"]

R2D = 180.0 / math.pi

#: The switches in the order JSBSim writes their columns (``coefficients`` also spelt ``aerodynamics``).
SWITCHES = ("simulation", "aerosurfaces", "rates", "velocities", "forces", "moments", "atmosphere", "massprops",
            "position", "coefficients", "fcs", "ground_reactions", "propulsion")
#: Each element an output may hold for a switch, → the switch.
ELEMENTS = {**{s: s for s in SWITCHES}, "aerodynamics": "coefficients"}


#: How JSBSim prints a vector (``FGColumnVector3::Dump``: 16 significant digits), a scalar (the stream's precision
#: then: 10, 12 or 14), the inertia tensor (``FGMatrix33::Dump``: 10 digits, right-aligned in 12 characters) and
#: an aerodynamic function's value (a fresh stream's 6 digits).
VECTOR, SCALAR, SCALAR_12, SCALAR_14, MATRIX, FUNCTION = ".16g", ".10g", ".12g", ".14g", ">12.10g", ".6g"


def _xyz(headers, prefix, suffix, scale=1.0, spec=VECTOR):
    return [(h, f"{prefix}{a}{suffix}", scale, spec) for h, a in zip(headers, "xyz", strict=True)]


def _trio(headers, names, scale=1.0, spec=VECTOR):
    return [(h, n, scale, spec) for h, n in zip(headers, names, strict=True)]


def _lmn(kind):
    return [f"{a}_{{{kind}}} (ft-lbs)" for a in "LMN"]


def _f(kind):
    return [f"F_{{{kind} {a}}} (lbs)" for a in "xyz"]


#: FGBuoyantForces' loads, which an aircraft without gas cells does not define (its columns then 0, as JSBSim's).
BUOYANCY = frozenset(f"forces/fb{a}-buoyancy-lbs" for a in "xyz") | frozenset(
    f"moments/{a}-buoyancy-lbsft" for a in "lmn")

#: switch → [(header, property or None (flightsim has none; "=0": the value 0), scale, format spec)].
FIXED = {
    "simulation": [],
    "aerosurfaces": [
        ("Aileron Command (norm)", "fcs/aileron-cmd-norm", 1.0, SCALAR),
        ("Elevator Command (norm)", "fcs/elevator-cmd-norm", 1.0, SCALAR),
        ("Rudder Command (norm)", "fcs/rudder-cmd-norm", 1.0, SCALAR),
        ("Flap Command (norm)", "fcs/flap-cmd-norm", 1.0, SCALAR),
        ("Left Aileron Position (deg)", "fcs/left-aileron-pos-deg", 1.0, SCALAR),
        ("Right Aileron Position (deg)", "fcs/right-aileron-pos-deg", 1.0, SCALAR),
        ("Elevator Position (deg)", "fcs/elevator-pos-deg", 1.0, SCALAR),
        ("Rudder Position (deg)", "fcs/rudder-pos-deg", 1.0, SCALAR),
        ("Flap Position (deg)", "fcs/flap-pos-deg", 1.0, SCALAR)],
    "rates": [
        *_trio(("P (deg/s)", "Q (deg/s)", "R (deg/s)"),
               ("velocities/p-rad_sec", "velocities/q-rad_sec", "velocities/r-rad_sec"), R2D),
        # (flightsim's accelerations/pdot-rad_sec2 … and udot-ft_sec2 … are the change over the last step, not
        # FGAccelerations' derivative at the frame: these columns are left out, as JSBSim's values they are not)
        *_trio(("P dot (deg/s^2)", "Q dot (deg/s^2)", "R dot (deg/s^2)"), (None, None, None)),
        *_trio(("P_{inertial} (deg/s)", "Q_{inertial} (deg/s)", "R_{inertial} (deg/s)"),
               ("velocities/pi-rad_sec", "velocities/qi-rad_sec", "velocities/ri-rad_sec"), R2D)],
    "velocities": [
        ("q bar (psf)", "aero/qbar-psf", 1.0, SCALAR),
        ("Reynolds Number", "aero/Re", 1.0, SCALAR),
        ("V_{Total} (ft/s)", "velocities/vt-fps", 1.0, SCALAR_12),
        ("V_{Inertial} (ft/s)", "velocities/eci-velocity-mag-fps", 1.0, SCALAR_12),
        *_trio(("UBody", "VBody", "WBody"), ("velocities/u-fps", "velocities/v-fps", "velocities/w-fps")),
        *_trio(("UdotBody", "VdotBody", "WdotBody"), (None, None, None)),
        *_trio(("UdotBody_i", "VdotBody_i", "WdotBody_i"),
               ("accelerations/uidot-ft_sec2", "accelerations/vidot-ft_sec2", "accelerations/widot-ft_sec2")),
        *_trio(("BodyAccel_X", "BodyAccel_Y", "BodyAccel_Z"), (None, None, None)),
        *_trio(("Aero V_{X Body} (ft/s)", "Aero V_{Y Body} (ft/s)", "Aero V_{Z Body} (ft/s)"),
               ("velocities/u-aero-fps", "velocities/v-aero-fps", "velocities/w-aero-fps")),
        *_trio(("V_{X_{inertial}} (ft/s)", "V_{Y_{inertial}} (ft/s)", "V_{Z_{inertial}} (ft/s)"),
               ("velocities/eci-x-fps", "velocities/eci-y-fps", "velocities/eci-z-fps")),
        *_trio(("V_{X_{ecef}} (ft/s)", "V_{Y_{ecef}} (ft/s)", "V_{Z_{ecef}} (ft/s)"),
               ("velocities/ecef-x-fps", "velocities/ecef-y-fps", "velocities/ecef-z-fps")),
        *_trio(("V_{North} (ft/s)", "V_{East} (ft/s)", "V_{Down} (ft/s)"),
               ("velocities/v-north-fps", "velocities/v-east-fps", "velocities/v-down-fps"))],
    "forces": [
        *_trio(("F_{Drag} (lbs)", "F_{Side} (lbs)", "F_{Lift} (lbs)"),
               ("forces/fwx-aero-lbs", "forces/fwy-aero-lbs", "forces/fwz-aero-lbs")),
        ("L/D", "forces/lod-norm", 1.0, SCALAR),
        *_xyz(_f("Aero"), "forces/fb", "-aero-lbs"),
        *_xyz(_f("Prop"), "forces/fb", "-prop-lbs"),
        *_xyz(_f("Gear"), "forces/fb", "-gear-lbs"),
        *_xyz(_f("Ext"), "forces/fb", "-external-lbs"),
        *_xyz(_f("Buoyant"), "forces/fb", "-buoyancy-lbs"),
        *_xyz(_f("Weight"), "forces/fb", "-weight-lbs"),
        *_xyz(_f("Total"), "forces/fb", "-total-lbs")],
    "moments": [
        *_trio(_lmn("Aero"), ("moments/l-aero-lbsft", "moments/m-aero-lbsft", "moments/n-aero-lbsft")),
        *_trio(_lmn("Aero MRC"), (None, None, None)),
        *_trio(_lmn("Prop"), ("moments/l-prop-lbsft", "moments/m-prop-lbsft", "moments/n-prop-lbsft")),
        *_trio(_lmn("Gear"), ("moments/l-gear-lbsft", "moments/m-gear-lbsft", "moments/n-gear-lbsft")),
        *_trio(_lmn("ext"), ("moments/l-external-lbsft", "moments/m-external-lbsft", "moments/n-external-lbsft")),
        *_trio(_lmn("Buoyant"), ("moments/l-buoyancy-lbsft", "moments/m-buoyancy-lbsft",
                                  "moments/n-buoyancy-lbsft")),
        *_trio(_lmn("Total"), ("moments/l-total-lbsft", "moments/m-total-lbsft", "moments/n-total-lbsft"))],
    "atmosphere": [
        ("Rho (slugs/ft^3)", "atmosphere/rho-slugs_ft3", 1.0, SCALAR),
        ("Absolute Viscosity", None, 1.0, SCALAR),
        ("Kinematic Viscosity", None, 1.0, SCALAR),
        ("Temperature (R)", "atmosphere/T-R", 1.0, SCALAR),
        ("P_{SL} (psf)", "atmosphere/P-sl-psf", 1.0, SCALAR),
        ("P_{Ambient} (psf)", "atmosphere/P-psf", 1.0, SCALAR),
        ("Turbulence Magnitude (ft/sec)", None, 1.0, SCALAR),
        ("Turbulence X Direction (deg)", None, 1.0, SCALAR),
        *_trio(("Wind V_{North} (ft/s)", "Wind V_{East} (ft/s)", "Wind V_{Down} (ft/s)"),
               ("atmosphere/total-wind-north-fps", "atmosphere/total-wind-east-fps",
                "atmosphere/total-wind-down-fps")),
        *_trio(("Roll Turbulence (deg/sec)", "Pitch Turbulence (deg/sec)", "Yaw Turbulence (deg/sec)"),
               ("atmosphere/p-turb-rad_sec", "atmosphere/q-turb-rad_sec", "atmosphere/r-turb-rad_sec"), R2D)],
    "massprops": [
        # (the tensor JSBSim dumps: its xy and yz products are the properties negated, its xz the property, as
        # FGMassBalance's GetIxy, GetIyz and GetIxz give them)
        ("I_{xx}", "inertia/ixx-slugs_ft2", 1.0, MATRIX), ("I_{xy}", "inertia/ixy-slugs_ft2", -1.0, MATRIX),
        ("I_{xz}", "inertia/ixz-slugs_ft2", 1.0, MATRIX), ("I_{yx}", "inertia/ixy-slugs_ft2", -1.0, MATRIX),
        ("I_{yy}", "inertia/iyy-slugs_ft2", 1.0, MATRIX), ("I_{yz}", "inertia/iyz-slugs_ft2", -1.0, MATRIX),
        ("I_{zx}", "inertia/ixz-slugs_ft2", 1.0, MATRIX), ("I_{zy}", "inertia/iyz-slugs_ft2", -1.0, MATRIX),
        ("I_{zz}", "inertia/izz-slugs_ft2", 1.0, MATRIX),
        ("Mass", "inertia/mass-slugs", 1.0, SCALAR), ("Weight", "inertia/weight-lbs", 1.0, SCALAR),
        *_xyz(("X_{cg}", "Y_{cg}", "Z_{cg}"), "inertia/cg-", "-in")],
    "position": [
        ("Altitude ASL (ft)", "position/h-sl-ft", 1.0, SCALAR_14),
        ("Altitude AGL (ft)", "position/h-agl-ft", 1.0, SCALAR_14),
        *_trio(("Phi (deg)", "Theta (deg)", "Psi (deg)"),
               ("attitude/phi-rad", "attitude/theta-rad", "attitude/psi-rad"), R2D),
        *[(f"Q({k})_{{{frame}}}", None, 1.0, SCALAR_14) for frame in ("LOCAL", "ECEF", "ECI") for k in range(1, 5)],
        ("Alpha (deg)", "aero/alpha-deg", 1.0, SCALAR_14),
        ("Beta (deg)", "aero/beta-deg", 1.0, SCALAR_14),
        ("Latitude (deg)", "position/lat-gc-deg", 1.0, SCALAR_14),
        ("Latitude Geodetic (deg)", "position/lat-geod-deg", 1.0, SCALAR_14),
        ("Longitude (deg)", "position/long-gc-deg", 1.0, SCALAR_14),
        *_xyz(("X_{ECI} (ft)", "Y_{ECI} (ft)", "Z_{ECI} (ft)"), "position/eci-", "-ft"),
        *_xyz(("X_{ECEF} (ft)", "Y_{ECEF} (ft)", "Z_{ECEF} (ft)"), "position/ecef-", "-ft"),
        ("Earth Position Angle (deg)", "position/epa-rad", R2D, SCALAR_14),
        ("Distance AGL (ft)", "position/h-agl-ft", 1.0, SCALAR_14),
        ("Terrain Elevation (ft)", "position/terrain-elevation-asl-ft", 1.0, SCALAR_14)],
}
#: The switches whose columns are the aircraft's own components, which flightsim does not list.
UNLISTED = {"fcs": "the FCS components' values", "ground_reactions": "the gear's values",
            "propulsion": "the engines' and tanks' values"}


def columns(switches, known, model):
    """The columns of the switches ``switches`` (:data:`SWITCHES` names) that flightsim gives, and what it leaves out.

    Parameters
    ----------
    switches : collection of str
        The switches that are ON.
    known : callable
        ``known(name)``: whether flightsim defines the property ``name`` for this flight.
    model : flightsim.physics.jsbsim.model.JSBSimModel or None
        The aircraft (its aerodynamic functions are the coefficients' columns).

    Returns
    -------
    (list, list)
        ``[(header, property, scale, format spec)]`` (the property ``"=0"``: the value 0) in JSBSim's order, and the
        headers (or groups) left out, each with its switch.
    """
    out, left = [], []
    for switch in SWITCHES:
        if switch not in switches:
            continue
        if switch == "coefficients":
            names = () if model is None else getattr(model.aero, "output_names", ())
            out.extend((name, name, 1.0, FUNCTION) for name in names)
            continue
        if switch in UNLISTED:
            left.append(f"<{switch}> ({UNLISTED[switch]})")
            continue
        for header, prop, scale, digits in FIXED[switch]:
            if prop is not None and (prop == "=0" or known(prop)):
                out.append((header, prop, scale, digits))
            elif prop in BUOYANCY:          # (FGBuoyantForces' loads: 0 without gas cells)
                out.append((header, "=0", scale, digits))
            else:
                left.append(f"<{switch}> {header}")
    return out, left
