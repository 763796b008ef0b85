"""Drawing an environment's airplane with flightsim's own renderer and HUD (imported only to render).

The frames come from :class:`flightsim.app.app.FlightApp` on a window opened
off-screen through EGL (``rgb_array``, as ``flightsim fly --headless``) or on
the screen (``human``).  The app is shown a :class:`Mirror`: a
:class:`~flightsim.simulation.flight.Simulation` that the environment moves
(it never steps by itself), loaded with one airplane of the batch before
each frame.  Off-screen frames show the scene without the HUD's side
panels; the window shows them (H hides them, as in ``flightsim fly``).
"""

import numpy as np

from flightsim.app.window import configure_pyglet, open_window
from flightsim.simulation.controls import Controls
from flightsim.simulation.flight import TIME_SCALES, FlightState, Simulation


class Mirror(Simulation):
    """A :class:`Simulation` that shows a state it is given: :meth:`advance` takes no steps."""

    def advance(self, frame_seconds):
        return 0


class _Controls:
    """The schedule the app reads the controls from: the batch's row of the airplane shown."""

    def __init__(self, batch):
        self.batch = batch
        self.index = 0

    def at(self, t):
        u = self.batch.controls[self.index]
        return Controls.from_array(u)


class View:
    """A window showing one airplane of a task's batch.

    Parameters
    ----------
    task : flightsim.gym.tasks.Task
    headless : bool
        Off-screen (EGL) for ``rgb_array``; a window on the screen otherwise.
    size : (int, int)
        Pixels.

    Raises
    ------
    flightsim.app.window.DisplayUnavailable
        No display (``human``) or no EGL/OpenGL 3.3 (``rgb_array``).
    """

    def __init__(self, task, headless, size):
        configure_pyglet(headless=headless)
        from flightsim.app.app import FlightApp
        from flightsim.app.input.keymap import load_keymap
        from flightsim.physics.integrators import INTEGRATORS

        batch = task.batch
        self.batch = batch
        self.dt = 1.0 / task.agent_hz
        self.sim = Mirror(task.aircraft, batch.integrator, batch.dt, atmosphere=batch.atmosphere, start=task.start)
        self.schedule = _Controls(batch)
        window = open_window(*size, visible=not headless, caption=f"flightsim gym - {task.aircraft.name}")
        self.app = FlightApp(window, self.sim, load_keymap(), INTEGRATORS, TIME_SCALES, use_gamepads=False,
                             schedule=self.schedule)
        self.headless = headless
        self.drawn = False
        if headless:
            self.app.press("hud")      # frames for videos and agents: the scene without the side panels

    def draw(self, index):
        """Draw airplane ``index`` as it is now; return the frame, (height, width, 3) uint8."""
        b = self.batch
        self.schedule.index = index
        self.sim.set_state(FlightState.from_vector(b.times[index], b.states[index]),
                           status=b.messages[index])
        self.sim.hold_wind(b.wind[index])
        app = self.app
        # imgui lays its windows out in their first frame and shows them from the second
        for _ in range(1 if self.drawn else 2):
            app.window.switch_to()
            app.gui.activate()
            app.window.dispatch_events()
            app.frame(self.dt)
            pixels = np.array(app.capture())
            app.window.flip()
        self.drawn = True
        return pixels

    def close(self):
        self.app.close()
