"""``<metrics>`` and ``<mass_balance>`` of a JSBSim aircraft: reference geometry, weight, CG and inertia.

As JSBSim's ``FGAircraft`` and ``FGMassBalance`` read them: the wing's area,
span and chord are the aerodynamic references (``metrics/Sw-sqft``,
``metrics/bw-ft``, ``metrics/cbarw-ft``); the centre of gravity is the
weighted mean of the empty airplane's, the point masses' and the fuel
tanks' (``FGMassBalance::Run``); the inertia given is the empty airplane's
about its own CG, with JSBSim's sign of the products
(``negated_crossproduct_inertia``, true by default: the file gives
``∫xy dm`` and the tensor holds ``−ixy``).

Locations are in the structural frame, inches (x aft, y right, z up);
:meth:`MassBalance.structural_to_body` moves a point to the body frame
about the CG, ft (x forward, y right, z down), as ``FGMassBalance::StructuralToBody``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from flightsim.errors import InputError
from flightsim.physics.jsbsim.program import canonical

__all__ = ["Metrics", "MassBalance", "INCH_TO_FT"]

#: JSBSim's ``inchtoft`` (FGJSBBase): feet per inch, multiplied (not divided) as JSBSim does.
INCH_TO_FT = 1.0 / 12.0


@dataclass(frozen=True)
class Metrics:
    """The ``<metrics>`` block: reference area, span and chord, tails, and the aerodynamic reference point.

    Attributes
    ----------
    wing_area, wing_span, chord : float
        ft², ft, ft.
    htail_area, htail_arm, vtail_area, vtail_arm : float
        ft², ft (0 where the file gives none).
    wing_incidence : float
        rad.
    aero_rp : tuple
        The aerodynamic reference point (``AERORP``), structural frame, in.
    eye_point : tuple
        The pilot's eye (``EYEPOINT``), structural frame, in (JSBSim's default: the origin).
    visual_point : tuple
        The visual reference point (``VRP``), structural frame, in (JSBSim's default: the origin).
    """

    wing_area: float
    wing_span: float
    chord: float
    htail_area: float
    htail_arm: float
    vtail_area: float
    vtail_arm: float
    wing_incidence: float
    aero_rp: tuple
    eye_point: tuple = (0.0, 0.0, 0.0)
    visual_point: tuple = (0.0, 0.0, 0.0)

    @classmethod
    def read(cls, source):
        """From the file's ``<metrics>`` (a :class:`~flightsim.physics.jsbsim.xmlfile.JSBSimFile`)."""
        el = source.section("metrics")

        def value(tag, unit, default=None):
            return source.child_number(el, tag, unit, "metrics", default)

        rp = next((loc for loc in el.findall("location") if loc.get("name") == "AERORP"), None)
        eye = next((loc for loc in el.findall("location") if loc.get("name") == "EYEPOINT"), None)
        vrp = next((loc for loc in el.findall("location") if loc.get("name") == "VRP"), None)
        return cls(value("wingarea", "FT2"), value("wingspan", "FT"), value("chord", "FT"),
                   value("htailarea", "FT2", 0.0), value("htailarm", "FT", 0.0), value("vtailarea", "FT2", 0.0),
                   value("vtailarm", "FT", 0.0), value("wing_incidence", "RAD", 0.0),
                   source.location(rp, "metrics/location[AERORP]"),
                   (0.0, 0.0, 0.0) if eye is None else source.location(eye, "metrics/location[EYEPOINT]"),
                   (0.0, 0.0, 0.0) if vrp is None else source.location(vrp, "metrics/location[VRP]"))

    def properties(self):
        """The ``metrics/*`` properties the aerodynamics reads, by name (the visual reference point's,
        ``metrics/visualrefpoint-[xyz]-in``, as ``FGAircraft::bind``)."""
        return {**{f"metrics/visualrefpoint-{axis}-in": float(v)
                   for axis, v in zip("xyz", self.visual_point, strict=True)},
                "metrics/Sw-sqft": self.wing_area, "metrics/bw-ft": self.wing_span, "metrics/cbarw-ft": self.chord,
                "metrics/iw-rad": self.wing_incidence, "metrics/iw-deg": np.degrees(self.wing_incidence),
                "metrics/Sh-sqft": self.htail_area, "metrics/lh-ft": self.htail_arm,
                "metrics/Sv-sqft": self.vtail_area, "metrics/lv-ft": self.vtail_arm,
                "metrics/lh-norm": self.htail_arm / self.chord if self.chord else 0.0,
                "metrics/lv-norm": self.vtail_arm / self.wing_span if self.wing_span else 0.0,
                "metrics/vbarh-norm": (self.htail_arm * self.htail_area / (self.chord * self.wing_area)
                                       if self.chord * self.wing_area else 0.0),
                "metrics/vbarv-norm": (self.vtail_arm * self.vtail_area / (self.wing_span * self.wing_area)
                                       if self.wing_span * self.wing_area else 0.0)}


#: JSBSim's ``slugtolb`` (FGJSBBase): pounds per slug.
SLUG_TO_LB = 32.174049


def _inertia_matrix(source, el, where):
    """``el``'s ``<ixx>``…``<iyz>`` as the inertia tensor, JSBSim's body axes, slug·ft² (``ReadInertiaMatrix``:
    absent entries 0; the products turned from the structural frame to the body frame, x and z flipped, xy and
    yz changing sign, xz not; ``negated_crossproduct_inertia``, true by default, as above)."""
    negated = (el.get("negated_crossproduct_inertia") or "true").strip().lower() != "false"
    ixx, iyy, izz, ixy, ixz, iyz = (source.child_number(el, k, "SLUG*FT2", where, 0.0)
                                    for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz"))
    s = -1.0 if negated else 1.0
    return np.array([[ixx, s * ixy, -s * ixz], [s * ixy, iyy, s * iyz], [-s * ixz, s * iyz, izz]])


def _point_mass_inertia(source, pm, weight, where):
    """A point mass's own inertia about its own CG, slug·ft² (JSBSim's ``PointMass::CalculateShapeInertia``): a
    ``<form shape="tube|cylinder|sphere|ball">`` of ``<radius>`` r and ``<length>`` l (ft; absent: 0) — a tube
    m r² about x and m (6 r² + l²)/12 about y and z, a solid cylinder m r²/2 and m (3 r² + l²)/12, a hollow sphere
    2 m r²/3, a ball 2 m r²/5; another shape none; without a form its own ``<ixx>``… (:func:`_inertia_matrix`)."""
    form = pm.find("form")
    if form is None:
        return _inertia_matrix(source, pm, where)
    r = source.child_number(form, "radius", "FT", f"{where}/form", 0.0)
    length = source.child_number(form, "length", "FT", f"{where}/form", 0.0)
    m = weight / SLUG_TO_LB
    shape = form.get("shape", "")
    axial, transverse = {"tube": (m * r * r, m / 12.0 * (6.0 * r * r + length * length)),
                         "cylinder": (m * r * r / 2.0, m / 12.0 * (3.0 * r * r + length * length)),
                         "sphere": (2.0 * m * r * r / 3.0,) * 2, "ball": (2.0 * m * r * r / 5.0,) * 2
                         }.get(shape, (0.0, 0.0))
    return np.diag([axial, transverse, transverse])


@dataclass(frozen=True)
class MassBalance:
    """The airplane's masses as loaded: the empty airplane, its point masses and its fuel tanks.

    Attributes
    ----------
    empty_weight : float
        lb.
    empty_cg : tuple
        The empty airplane's CG, structural frame, in.
    inertia : numpy.ndarray
        The empty airplane's inertia tensor about its CG, JSBSim's body axes, slug·ft² (``ReadInertiaMatrix``).
    point_masses : tuple
        ``(name, weight lb, (x, y, z) in)`` each.
    tanks : tuple
        ``(contents lb, (x, y, z) in)`` each fuel tank (its contents as the file gives them).
    """

    empty_weight: float
    empty_cg: tuple
    inertia: np.ndarray
    point_masses: tuple
    tanks: tuple

    @classmethod
    def read(cls, source):
        """From ``<mass_balance>`` and the ``<tank>`` elements of ``<propulsion>``."""
        el = source.section("mass_balance")
        inertia = _inertia_matrix(source, el, "mass_balance")
        cg = next((loc for loc in el.findall("location") if loc.get("name") == "CG"), None)
        masses = []
        for k, pm in enumerate(el.findall("pointmass")):
            where = f"mass_balance/pointmass[{k}]"
            weight = source.number(pm.find("weight"), f"{where}/weight", "LBS")
            masses.append((pm.get("name") or f"pointmass {k}", weight,
                           source.location(pm.find("location"), f"{where}/location")))
            # its own inertia about its own CG (FGMassBalance::AddPointMass: a <form>'s, or its <ixx>…), which
            # JSBSim adds to the tensor wherever the mass is: added to the empty airplane's here
            inertia = inertia + _point_mass_inertia(source, pm, weight, where)
        tanks = []
        propulsion = source.section("propulsion", required=False)
        for k, tank in enumerate(() if propulsion is None else propulsion.findall("tank")):
            where = f"propulsion/tank[{k}]"
            contents = tank.find("contents")
            tanks.append((0.0 if contents is None else source.number(contents, f"{where}/contents", "LBS"),
                          source.location(tank.find("location"), f"{where}/location")))
            # the contents' own inertia (FGTank::CalculateInertias), which FGPropulsion::CalculateTankInertias adds
            # to the tensor wherever the tank is, as a point mass's own: added to the empty airplane's too
            inertia = inertia + np.diag(tank_inertia(source, tank, tanks[-1][0], where))
        # (FGMassBalance::Load: without <emptywt> the empty weight stays 0, without a CG location its CG at
        # the origin, as a vehicle made of point masses is given: J246)
        empty = source.child_number(el, "emptywt", "LBS", "mass_balance", 0.0)
        return cls(empty, (0.0, 0.0, 0.0) if cg is None else source.location(cg, "mass_balance/location[CG]"),
                   inertia, tuple(masses), tuple(tanks))

    @property
    def weight(self):
        """The airplane's weight as loaded (empty, point masses, fuel), lb."""
        return self.empty_weight + sum(w for _, w, _ in self.point_masses) + sum(c for c, _ in self.tanks)

    @property
    def cg(self):
        """The CG as loaded, structural frame, in: ``(W_e cg_e + Σ w r) / W`` (``FGMassBalance::Run``)."""
        moment = self.empty_weight * np.asarray(self.empty_cg, dtype=np.float64)
        for _, w, r in self.point_masses:
            moment = moment + w * np.asarray(r)
        tanks = np.zeros(3)
        for c, r in self.tanks:
            tanks = tanks + c * np.asarray(r)
        return (moment + tanks) / self.weight

    def structural_to_body(self, r, cg=None):
        """Structural point ``r`` (in) relative to the CG in the body frame, ft (JSBSim's ``StructuralToBody``)."""
        c = self.cg if cg is None else np.asarray(cg, dtype=np.float64)
        return np.array([INCH_TO_FT * (c[0] - r[0]), INCH_TO_FT * (r[1] - c[1]), INCH_TO_FT * (c[2] - r[2])])


def grain_shape(source, tank, radius, where):
    """A solid-propellant tank's ``<grain_config>`` as ``FGTank`` reads it: ``(type, length, bore radius)``, in.

    Raises
    ------
    flightsim.errors.InputError
        A ``FUNCTION`` grain (its inertia functions are not supported), another grain type, or a ``CYLINDRICAL``
        one whose bore is not smaller than the tank's ``radius`` (in): the file, the element and why.
    """
    grain = tank.find("grain_config")
    kind = (grain.get("type") or "").strip()
    if kind not in ("CYLINDRICAL", "ENDBURNING"):
        raise InputError(source.path, f"{where}/grain_config", f"grain type {kind!r} is not supported "
                         "(CYLINDRICAL and ENDBURNING: a FUNCTION grain's inertia functions are not)")
    length = source.child_number(grain, "length", "FT", f"{where}/grain_config", 0.0) * 12.0
    bore = source.child_number(grain, "bore_diameter", "FT", f"{where}/grain_config", 0.0) * 12.0 / 2.0
    if kind == "CYLINDRICAL" and radius <= bore:
        raise InputError(source.path, f"{where}/grain_config/bore_diameter", "the bore must be smaller than the "
                         "grain's diameter")
    return kind, length, bore


def tank_inertia(source, tank, contents, where):
    """A tank's contents' own moments of inertia ``(Ixx, Iyy, Izz)``, slug·ft², as ``FGTank::CalculateInertias``
    computes them for ``contents`` lb: a liquid's a shrinking snowball, ``m · inertia_factor · 0.4 · R²`` (none
    without a ``<radius>``); a solid propellant's (``<grain_config>``) a ``CYLINDRICAL`` grain's — a tube of the
    tank's radius whose bore grows as it burns, its density the full tank's (``<capacity>`` in the grain's
    volume) — or an ``ENDBURNING`` one's, a cylinder shortening as it burns.

    Raises
    ------
    flightsim.errors.InputError
        A ``FUNCTION`` grain (its inertia functions are not supported), another grain type, or a bore not smaller
        than the grain: the file, the element and why.
    """
    mass = contents / 32.174049                                             # (JSBSim's lbtoslug)
    radius = source.child_number(tank, "radius", "FT", where, 0.0) * 12.0             # (in, as FGTank keeps it)
    grain = tank.find("grain_config")
    if grain is None:
        if radius <= 0.0:
            return (0.0, 0.0, 0.0)
        factor = source.child_number(tank, "inertia_factor", None, where, 1.0)
        i = mass * factor * 0.4 * radius * radius / 144.0
        return (i, i, i)
    kind, length, bore = grain_shape(source, tank, radius, where)
    capacity = source.child_number(tank, "capacity", "LBS", where, 0.00001)
    rad2 = radius * radius
    if kind == "CYLINDRICAL":
        density = (capacity / 32.174049) / (math.pi * length * (rad2 - bore * bore))
        inner = math.sqrt(rad2 - (mass / density) / (math.pi * length))
        sum_sqr = (rad2 + inner * inner) / 144.0
        iyy = mass * (3.0 * sum_sqr + length * length / 144.0) / 12.0
        return (0.5 * mass * sum_sqr, iyy, iyy)
    density = (capacity / 32.174049) / (math.pi * length * rad2)
    length = (mass / density) / (math.pi * rad2)
    iyy = mass * (3.0 * rad2 + length * length) / (144.0 * 12.0)
    return (0.5 * mass * rad2 / 144.0, iyy, iyy)


#: ``FGTank::ProcessFuelName``: a named fuel's density, lb/gal (anything else: 6.6).
FUEL_DENSITY = {"AVGAS": 6.02, "JET-A": 6.74, "JET-A1": 6.74, "JET-B": 6.48, "JP-1": 6.76, "JP-2": 6.38,
                "JP-3": 6.34, "JP-4": 6.48, "JP-5": 6.81, "JP-6": 6.55, "JP-7": 6.61, "JP-8": 6.66,
                "JP-8+100": 6.66, "RP-1": 6.73, "T-1": 6.88, "ETHANOL": 6.58, "HYDRAZINE": 8.61, "F-34": 6.66,
                "F-35": 6.74, "F-40": 6.48, "F-44": 6.81, "AVTAG": 6.48, "AVCAT": 6.81}


def tank_properties(source):
    """Each fuel tank's ``propulsion/tank[k]/contents-lbs`` and ``…/density-lbs_per_gal`` as ``FGTank`` gives them
    (the contents as loaded: flightsim's fuel does not burn; the density the ``<density>``'s, or the named
    ``<type>``'s, else 6.6 lb/gal)."""
    out = {}
    propulsion = source.section("propulsion", required=False)
    for k, tank in enumerate(() if propulsion is None else propulsion.findall("tank")):
        where = f"propulsion/tank[{k}]"
        contents = tank.find("contents")
        density = 6.6 if tank.find("density") is None else source.number(tank.find("density"), f"{where}/density")
        fuel = (tank.findtext("type") or "").strip()
        if fuel:
            density = FUEL_DENSITY.get(fuel, 6.6)
        base = canonical(f"propulsion/tank[{k}]")
        out[f"{base}/contents-lbs"] = 0.0 if contents is None else source.number(contents, f"{where}/contents", "LBS")
        out[f"{base}/density-lbs_per_gal"] = density
    return out
