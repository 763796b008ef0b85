"""The imgui head-up display: the registered panels over a view of the flight.

Each frame the app builds a :class:`~flightsim.app.hud.hud_view.HudView` (what
the panels read) and hands it, with its
:class:`~flightsim.app.hud.hud_view.HudCommands` (what they may ask for), to
:meth:`Hud.draw`, which runs every panel of
:data:`flightsim.app.hud.panels.PANELS` in order.  The :class:`Hud` keeps only
the HUD's own state: panels shown or hidden, the key help, a short message,
the integrator menus and where the last frame's widgets were.

The HUD's timers (how long a message shows, the stall warning's blink) run
on the app's clock, :attr:`Hud.clock`: the sum of the frame times the frame
loop has given the app (:meth:`Hud.tick`), the clock everything else in a
frame runs on, so frames of a given length show the same HUD whatever the
wall time.

Roll, pitch and heading come from the simulation's telemetry, which converts
the quaternion with the book's function and aviation signs.
"""

from __future__ import annotations

from imgui_bundle import imgui

from flightsim.app.hud.instruments import FT_S_TO_KT
from flightsim.app.hud.panels import PANELS

__all__ = ["Hud", "FT_S_TO_KT"]


class Hud:
    """The HUD's own state, and the frame's drawing of the registered panels.

    Parameters
    ----------
    integrators : mapping
        Name -> integrator (``.label``, ``.order``, ``.description``), in
        the order to list them.
    time_scales : sequence of float
        Time scales offered.
    panels : sequence of callable, optional
        ``panel(view, do, hud)`` in drawing order (default :data:`~flightsim.app.hud.panels.PANELS`).

    Attributes
    ----------
    show : bool
        The side panels are shown (the banner always is).
    show_help : bool
        The key help is open.
    hit_boxes : dict
        Screen rectangles ``(x0, y0, x1, y1)``, imgui pixels from the top
        left, of widgets drawn in the last frame, by name (``"integrator"``,
        ``"integrator:rk4"``, ``"seek"``, ``"trim_now"``, ``"dynamics:mode:roll"``,
        ...): where a click lands; ``"flight:window"``, ``"numerics:window"`` and
        ``"dynamics:window"`` are the windows themselves.
    clock : float
        The app's clock, seconds: the sum of the frame times given to :meth:`tick` (the frame loop's).
    message : str
        The last :meth:`notify` text (shown while :attr:`clock` < ``message_until``).
    dynamics_fitted : int or None
        The Dynamics readout's ``generation`` the λ·dt plot last fitted its axes to.
    dynamics_refits : int
        Frames the λ·dt plot still fits its axes to the data (then the pilot may zoom and pan).
    dynamics_plot_pixels : (float, float) or None
        The λ·dt plot area's size in the last frame (its fit keeps equal units per pixel).
    dynamics_zoom : bool
        The λ·dt plot fits the modes (else the stability regions too).
    backdrops : bool
        The scene draws the side panels' backgrounds (opaque, where last
        frame's windows were: :data:`~flightsim.app.hud.panels.BACKDROP_WINDOWS`)
        and the cockpit frame, before anything else, so nothing behind them
        is shaded; the panels then draw no background of their own (``low``
        quality: on a software rasteriser every blended pixel costs).
    """

    def __init__(self, integrators, time_scales, panels=PANELS):
        self.names = list(integrators)
        self.labels = [f"{integrators[n].label}  (order {integrators[n].order})" for n in self.names]
        self.descriptions = [integrators[n].description for n in self.names]
        self.time_scales = list(time_scales)
        self.panels = list(panels)
        self.show = True
        self.show_help = False
        #: the Input panel (joysticks) is shown
        self.show_devices = False
        #: the Instructor panel (I): fail and repair things
        self.show_instructor = False
        self.hit_boxes = {}
        self.clock = 0.0
        self.message = ""
        self.message_until = 0.0
        self.dynamics_fitted = None
        self.dynamics_refits = 0
        self.dynamics_plot_pixels = None
        self.dynamics_zoom = False
        self.backdrops = False
        #: the map panel's zoom (pixels per ft), the home-frame (x, y) ft at its centre, and whether that
        #: follows the airplane
        self.map_scale = 1.0 / 700.0
        self.map_center = (0.0, 0.0)
        self.map_follow = True

    def tick(self, dt):
        """Advance :attr:`clock` by a frame of ``dt`` seconds (the app calls it once a frame)."""
        self.clock += float(dt)

    def notify(self, text, seconds=3.0):
        """Show ``text`` for ``seconds`` of the app's clock (:attr:`clock`)."""
        self.message = text
        self.message_until = self.clock + seconds

    @property
    def message_shown(self) -> bool:
        """The last message is still showing (its time on :attr:`clock` has not run out)."""
        return bool(self.message) and self.clock < self.message_until

    def draw(self, view, do):
        """Build this frame's windows (between ``imgui.new_frame()`` and ``imgui.render()``).

        Parameters
        ----------
        view : flightsim.app.hud.hud_view.HudView
            What the panels read.
        do : flightsim.app.hud.hud_view.HudCommands
            What they may ask for.
        """
        self.hit_boxes = {}
        for panel in self.panels:
            panel(view, do, self)

    def remember(self, name):
        """Record the last widget's rectangle as ``hit_boxes[name]``."""
        lo, hi = imgui.get_item_rect_min(), imgui.get_item_rect_max()
        self.hit_boxes[name] = (lo.x, lo.y, hi.x, hi.y)

    def method_combo(self, key, current_name, choose):
        """A combo of every registered integrator; ``choose(name)`` when another is picked.

        Hit boxes: ``key`` (the combo) and ``key:NAME`` (its entries, while open).
        """
        current = self.names.index(current_name) if current_name in self.names else 0
        imgui.set_next_item_width(-1.0)
        opened = imgui.begin_combo(f"##{key}", self.labels[current], imgui.ComboFlags_.height_largest)
        self.remember(key)
        if imgui.is_item_hovered() and not opened:
            imgui.set_tooltip(self.descriptions[current])
        if not opened:
            return
        for index, (name, label) in enumerate(zip(self.names, self.labels, strict=True)):
            if imgui.selectable(label, index == current)[0] and index != current:
                choose(name)
                self.notify(f"{key.replace('_', ' ')}: {name}")
            self.remember(f"{key}:{name}")
            if imgui.is_item_hovered():
                imgui.set_tooltip(self.descriptions[index])
        imgui.end_combo()
