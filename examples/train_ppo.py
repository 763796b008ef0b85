"""Train a PPO policy on ``flightsim/HeadingHold-v0`` with skrl's JAX backend, many airplanes in one batch.

Needs the optional extra ``pip install 'flightsim[train]'`` (skrl, JAX, Flax, Optax: about 0.2 GB of
wheels, CPU only).  Then::

    python examples/train_ppo.py --plot docs/ppo-learning-curve.png      # 25 min; heading_hold_ppo/
    python examples/train_ppo.py --replot --out heading_hold_ppo --plot curve.png     # redraw a run's curve
    flightsim fly --policy heading_hold_ppo/policy.npz --policy-target hdg=90,alt=2500

The airplanes (``--envs``, default 256) are one :class:`flightsim.gym.envs.FlightVectorEnv` (one compiled
call steps them all).  The loop is skrl's agent interface (``act``, ``record_transition``,
``post_interaction``, which updates every ``--rollouts`` decisions); a finished airplane is reset in the
same step through the vector environment's ``reset_mask``, so each transition's next observation is its
own episode's last.  The observations are standardised by skrl's running scaler, the learning rate follows
the KL divergence (skrl's ``KLAdaptiveLR``), and the policy's mean starts at the trimmed throttle.

Every ``--eval-every`` decisions the policy as saved (:mod:`flightsim.gym.policy`: numpy, its mean action)
flies ``--eval-episodes`` evaluation episodes, always the same ones (drawn from ``--eval-seed``), and so
does :class:`flightsim.gym.AutopilotAgent` once, at the start: the baseline.  Written to ``--out``:
``policy.npz`` (the best evaluation's policy, a flightsim policy file), ``final.npz`` (the last one's),
``curve.csv`` (decisions, wall time training in s (evaluations excluded), mean episode reward, its
standard error, crashes, episodes, the autopilot's mean), ``summary.json``, and with ``--plot`` the
learning curve as a PNG (redrawn after each evaluation).  The first evaluation at or above 90 % of the
autopilot's mean is printed with its decisions and wall time.
"""

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import gymnasium
import numpy as np

import flightsim.gym  # noqa: F401  (registers the environments)
from flightsim.gym import AutopilotAgent
from flightsim.gym.policy import load_policy, save_policy

ENV_ID = "flightsim/HeadingHold-v0"
HIDDEN = (64, 64)
#: The observations are standardised by their running mean and variance in training, then clipped to ±this
OBS_CLIP = 5.0


def make_env(n, **kwargs):
    return gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="vector_entry_point", **kwargs)


def run_episodes(envs, act, seed):
    """Each sub-environment's first episode from ``envs.reset(seed=seed)``, flown by ``act(obs) -> actions``;
    returns the ``(num_envs,)`` episode rewards and whether each ended in a crash (terminated)."""
    obs, _ = envs.reset(seed=seed)
    total = np.zeros(envs.num_envs)
    done = np.zeros(envs.num_envs, dtype=bool)
    crashed = np.zeros(envs.num_envs, dtype=bool)
    while not done.all():
        obs, reward, terminated, truncated, _ = envs.step(act(obs))
        total += np.where(done, 0.0, reward)
        crashed |= terminated & ~done
        done |= terminated | truncated
    return total, crashed


def build_agent(observation_space, action_space, num_envs, args, trim_actions):
    """skrl's PPO agent with a Gaussian policy and a value network (``HIDDEN`` tanh layers each); the policy's mean
    starts at ``trim_actions`` (the start's trimmed controls as actions: 0, 0, 0 and its throttle)."""
    import flax.linen as nn
    import jax.numpy as jnp
    from skrl.agents.jax.ppo import PPO, PPO_CFG
    from skrl.memories.jax import RandomMemory
    from skrl.models.jax import DeterministicMixin, GaussianMixin, Model
    from skrl.resources.preprocessors.jax import RunningStandardScaler
    from skrl.resources.schedulers.jax import KLAdaptiveLR

    class Policy(GaussianMixin, Model):
        def __init__(self, observation_space=None, state_space=None, action_space=None, device=None, **kwargs):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device, **kwargs)
            GaussianMixin.__init__(self, clip_actions=False, clip_log_std=True, min_log_std=-5.0, max_log_std=1.0,
                                   reduction="sum")

        @nn.compact
        def __call__(self, inputs, role):
            x = inputs["observations"]
            for width in HIDDEN:
                x = nn.tanh(nn.Dense(width, kernel_init=nn.initializers.orthogonal(np.sqrt(2.0)))(x))
            x = nn.Dense(self.num_actions, kernel_init=nn.initializers.orthogonal(0.01),
                         bias_init=lambda *_: jnp.asarray(trim_actions, dtype=jnp.float32))(x)
            log_std = self.param("log_std", lambda _: jnp.full(self.num_actions, args.init_log_std))
            return x, {"log_std": log_std}

    class Value(DeterministicMixin, Model):
        def __init__(self, observation_space=None, state_space=None, action_space=None, device=None, **kwargs):
            Model.__init__(self, observation_space=observation_space, state_space=state_space,
                           action_space=action_space, device=device, **kwargs)
            DeterministicMixin.__init__(self, clip_actions=False)

        @nn.compact
        def __call__(self, inputs, role):
            x = inputs["observations"]
            for width in HIDDEN:
                x = nn.tanh(nn.Dense(width, kernel_init=nn.initializers.orthogonal(np.sqrt(2.0)))(x))
            return nn.Dense(1, kernel_init=nn.initializers.orthogonal(1.0))(x), {}

    models = {"policy": Policy(observation_space=observation_space, action_space=action_space),
              "value": Value(observation_space=observation_space, action_space=action_space)}
    for model in models.values():
        model.init_state_dict(role="policy" if model is models["policy"] else "value")
    cfg = PPO_CFG(rollouts=args.rollouts, learning_epochs=args.epochs, mini_batches=args.mini_batches,
                  discount_factor=args.gamma, gae_lambda=0.95, learning_rate=args.lr, grad_norm_clip=0.5,
                  ratio_clip=0.2, value_clip=0.0, entropy_loss_scale=0.0, value_loss_scale=0.5,
                  learning_rate_scheduler=KLAdaptiveLR if args.kl > 0 else None,
                  learning_rate_scheduler_kwargs={"kl_threshold": args.kl} if args.kl > 0 else {},
                  observation_preprocessor=RunningStandardScaler if args.obs_scale else None,
                  observation_preprocessor_kwargs={"size": observation_space, "clip_threshold": OBS_CLIP}
                  if args.obs_scale else {},
                  time_limit_bootstrap=True, value_preprocessor=RunningStandardScaler,
                  rewards_shaper=(lambda rewards, timestep, timesteps: rewards + args.alive_bonus)
                  if args.alive_bonus else None,
                  value_preprocessor_kwargs={"size": 1},
                  experiment={"write_interval": 0, "checkpoint_interval": 0})
    memory = RandomMemory(memory_size=args.rollouts, num_envs=num_envs)
    agent = PPO(models=models, memory=memory, observation_space=observation_space, action_space=action_space,
                cfg=cfg)
    agent.init()
    agent.enable_training_mode(True)
    return agent


def export_policy(agent):
    """The policy as :func:`flightsim.gym.policy.save_policy` takes it: the network's ``(weight, bias)`` layers, the
    observation scaler's running mean and variance (with its clip and epsilon, for ``meta``), the log standard
    deviations; numpy arrays."""
    params = agent.policy.state_dict.params["params"]
    layers = [(np.asarray(params[f"Dense_{k}"]["kernel"]), np.asarray(params[f"Dense_{k}"]["bias"]))
              for k in range(len(HIDDEN) + 1)]
    scaler = agent.checkpoint_modules.get("observation_preprocessor")
    scale = None if scaler is None else {
        "mean": np.asarray(scaler.running_mean), "variance": np.asarray(scaler.running_variance),
        "clip": float(scaler.clip_threshold), "epsilon": float(scaler.epsilon)}
    return layers, scale, np.asarray(params["log_std"])


def plot_curve(rows, autopilot, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = np.array([r["decisions"] for r in rows], dtype=float)
    wall = np.array([r["wall_s"] for r in rows])
    mean = np.array([r["mean_reward"] for r in rows])
    sem = np.array([r["sem_reward"] for r in rows])
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for axis, x, label in ((ax, steps / 1e6, "environment steps (decisions of all airplanes), millions"),
                           (ax2, wall / 60.0, "wall time training, minutes (2 shared CPU cores)")):
        axis.fill_between(x, mean - sem, mean + sem, color="tab:blue", alpha=0.25)
        axis.plot(x, mean, "o-", color="tab:blue", ms=3, label="PPO (skrl, JAX): mean episode reward")
        axis.axhline(autopilot, color="tab:green", lw=1.5, label=f"flightsim autopilot: {autopilot:.0f}")
        axis.axhline(0.9 * autopilot, color="tab:green", lw=1, ls="--", label=f"90 % of it: {0.9 * autopilot:.0f}")
        axis.set_xlabel(label)
        axis.grid(alpha=0.3)
    reached = [r for r in rows if r["mean_reward"] >= 0.9 * autopilot]
    if reached:
        first = reached[0]
        for axis, x, text in ((ax, first["decisions"] / 1e6, f"{first['decisions'] / 1e6:.2f} M"),
                              (ax2, first["wall_s"] / 60.0, f"{first['wall_s'] / 60.0:.1f} min")):
            axis.axvline(x, color="tab:gray", lw=1, ls=":")
            axis.annotate(f"first at 90 %: {text}", (x, 0.9 * autopilot), xytext=(6, -18),
                          textcoords="offset points", fontsize=8, color="tab:gray")
    seconds = rows[0].get("episode_seconds") or 60.0
    ax.set_ylabel(f"mean episode reward ({seconds:g} s, {10 * seconds:g} decisions; max {10 * seconds:g})")
    ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(f"HeadingHold-v0: PPO learning curve, {rows[0]['episodes']} evaluation episodes each point "
                 f"(mean ± standard error)", fontsize=10)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def make_parser():
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--envs", type=int, default=256, help="airplanes flying at once (default 256)")
    parser.add_argument("--steps", type=float, default=2e8, help="decisions to train for, all airplanes together")
    parser.add_argument("--minutes", type=float, default=25.0, help="stop after this wall time training (min)")
    parser.add_argument("--episode-seconds", type=float, help="simulated seconds an episode lasts (default the "
                                                                  "task's, 60 s), in training and evaluation")
    parser.add_argument("--eval-every", type=float, default=2.5e5, help="decisions between evaluations")
    parser.add_argument("--eval-episodes", type=int, default=64)
    parser.add_argument("--eval-seed", type=int, default=12345)
    parser.add_argument("--no-autopilot", action="store_true", help="skip the autopilot's baseline evaluation")
    parser.add_argument("--rollouts", type=int, default=32, help="decisions per airplane between updates")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--mini-batches", type=int, default=4)
    parser.add_argument("--lr", type=float, default=3e-4, help="the starting learning rate")
    parser.add_argument("--kl", type=float, default=0.008,
                        help="the KL divergence the learning rate adapts to (skrl's KLAdaptiveLR; 0: a fixed rate)")
    parser.add_argument("--obs-scale", action=argparse.BooleanOptionalAction, default=True,
                        help="standardise the observations by their running mean and variance (default on)")
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--init-log-std", type=float, default=-1.0)
    parser.add_argument("--alive-bonus", type=float, default=0.0,
                        help="added to each decision's reward in training only (the curve is the task's own reward): "
                             "a crash then forfeits what flying on would earn")
    parser.add_argument("--start-at-trim", action=argparse.BooleanOptionalAction, default=True,
                        help="the policy's mean starts at the trimmed throttle, not at half throttle (default on)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="heading_hold_ppo", help="folder for policy.npz and curve.csv")
    parser.add_argument("--plot", help="write the learning curve there (PNG)")
    parser.add_argument("--replot", action="store_true", help="only draw --plot from --out's curve.csv")
    return parser


def replot(curve, path):
    """Draw the learning curve of a finished run's ``curve.csv`` to ``path``; 0, or 2 when there is none."""
    if path is None or not curve.is_file():
        print(f"train_ppo.py: --replot needs --plot and {curve}", file=sys.stderr)
        return 2
    with open(curve, newline="") as file:
        rows = [{k: int(v) if k in ("decisions", "episodes", "crashes") else float(v) for k, v in row.items()}
                for row in csv.DictReader(file)]
    plot_curve(rows, rows[0]["autopilot_mean"], path)
    print(f"plot: {path}")
    return 0


def main(argv=None):
    parser = make_parser()
    args = parser.parse_args(argv)
    if args.replot:
        return replot(Path(args.out) / "curve.csv", args.plot)
    for name in ("envs", "eval_episodes", "rollouts", "epochs", "mini_batches"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')}: must be ≥ 1, got {getattr(args, name)}")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    import jax.numpy as jnp
    import skrl
    from skrl.utils import set_seed

    set_seed(args.seed)
    env_kwargs = {"agent_hz": 10.0}
    if args.episode_seconds is not None:
        env_kwargs["episode_seconds"] = args.episode_seconds
    envs = make_env(args.envs, **env_kwargs)
    evals = make_env(args.eval_episodes, **env_kwargs)
    task = envs.unwrapped.task
    meta = {"env_id": ENV_ID, "env_kwargs": {**env_kwargs, "aircraft": None, "dt": task.batch.dt,
                                             "integrator": task.batch.integrator},
            "observation": [name for name, _, _ in task.OBSERVATION], "action": list(flightsim.gym.ACTIONS),
            "activation": "tanh", "library": f"skrl {skrl.__version__} (JAX), PPO"}

    autopilot = float("nan")
    if not args.no_autopilot:
        t = time.perf_counter()
        agent_ap = AutopilotAgent(evals)
        autopilot = float(run_episodes(evals, lambda obs: agent_ap.act(), args.eval_seed)[0].mean())
        print(f"autopilot: mean episode reward {autopilot:.1f} over {args.eval_episodes} episodes "
              f"({time.perf_counter() - t:.0f} s)", flush=True)
        evals.close()
        evals = make_env(args.eval_episodes, **env_kwargs)   # a fresh batch: the autopilot disengaged

    trim = np.array([0.0, 0.0, 0.0, 2.0 * task.start.controls.throttle - 1.0])
    agent = build_agent(envs.single_observation_space, envs.single_action_space, args.envs, args,
                        trim if args.start_at_trim else np.zeros(4))
    rows = []
    best = -np.inf
    reached = None
    curve = out / "curve.csv"

    def evaluate(decisions, wall):
        nonlocal best, reached
        layers, scale, log_std = export_policy(agent)
        path = out / "last.npz"
        save_policy(path, layers, {**meta, "trained_steps": decisions}, log_std, observation_scale=scale)
        policy = load_policy(path)
        rewards, crashed = run_episodes(evals, policy.act, args.eval_seed)
        row = {"decisions": decisions, "wall_s": round(wall, 2), "mean_reward": float(rewards.mean()),
               "sem_reward": float(rewards.std(ddof=1) / np.sqrt(rewards.size)) if rewards.size > 1 else 0.0,
               "crashes": int(np.sum(crashed)), "episodes": int(rewards.size), "autopilot_mean": autopilot,
               "episode_seconds": task.episode_seconds}
        rows.append(row)
        with open(curve.with_name("curve.csv.part"), "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(row))
            writer.writeheader()
            writer.writerows(rows)
        curve.with_name("curve.csv.part").replace(curve)
        if row["mean_reward"] > best:
            best = row["mean_reward"]
            path.replace(out / "policy.npz")
        if reached is None and np.isfinite(autopilot) and row["mean_reward"] >= 0.9 * autopilot:
            reached = row
        if args.plot and np.isfinite(autopilot):
            plot_curve(rows, autopilot, args.plot)      # kept up to date: a stopped run leaves its curve
        print(f"decisions {decisions:>11,}  wall {wall:7.0f} s  mean reward {row['mean_reward']:7.1f} "
              f"± {row['sem_reward']:.1f}  crashes {row['crashes']}/{row['episodes']}"
              + (f"  autopilot {autopilot:.1f}" if np.isfinite(autopilot) else ""), flush=True)

    total = int(args.steps)
    every = max(int(args.eval_every), 1)
    evaluate(0, 0.0)
    obs, _ = envs.reset(seed=args.seed)
    wall = 0.0
    start = time.perf_counter()
    decisions = 0
    next_eval = every
    t = 0
    timesteps = total // args.envs
    while decisions < total and wall < 60.0 * args.minutes:
        obs_j = jnp.asarray(obs)
        agent.pre_interaction(timestep=t, timesteps=timesteps)
        actions, _ = agent.act(obs_j, None, timestep=t, timesteps=timesteps)
        next_obs, reward, terminated, truncated, infos = envs.step(np.asarray(actions))
        agent.record_transition(observations=obs_j, states=None, actions=actions,
                                rewards=jnp.asarray(reward, dtype=jnp.float32).reshape(-1, 1),
                                next_observations=jnp.asarray(next_obs), next_states=None,
                                terminated=jnp.asarray(terminated, dtype=jnp.int8).reshape(-1, 1),
                                truncated=jnp.asarray(truncated, dtype=jnp.int8).reshape(-1, 1),
                                infos=infos, timestep=t, timesteps=timesteps)
        done = terminated | truncated
        if done.any():      # the same-step reset: the transition above kept the episode's last observation
            next_obs, _ = envs.reset(options={"reset_mask": done})
        agent.post_interaction(timestep=t, timesteps=timesteps)
        obs = next_obs
        t += 1
        decisions += args.envs
        if decisions >= next_eval and t % args.rollouts == 0:     # evaluate right after an update
            wall += time.perf_counter() - start
            evaluate(decisions, wall)
            next_eval = decisions + every
            start = time.perf_counter()
    wall += time.perf_counter() - start
    if rows[-1]["decisions"] != decisions:
        evaluate(decisions, wall)
    if (out / "last.npz").exists():
        (out / "last.npz").replace(out / "final.npz")      # the last evaluation's policy (policy.npz: the best)
    summary = {"decisions": decisions, "wall_s": round(wall, 1), "best_mean_reward": best, "autopilot_mean": autopilot,
               "reached_90pct": None if reached is None else {k: reached[k] for k in ("decisions", "wall_s")}}
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"policy saved: {out / 'policy.npz'} (best mean reward {best:.1f}); curve: {curve}")
    if np.isfinite(autopilot):
        if reached is None:
            print(f"90 % of the autopilot's mean ({0.9 * autopilot:.1f}) not reached in {decisions:,} decisions, "
                  f"{wall:.0f} s")
        else:
            print(f"90 % of the autopilot's mean ({0.9 * autopilot:.1f}) reached after {reached['decisions']:,} "
                  f"decisions, {reached['wall_s']:.0f} s of training")
    if args.plot:
        if np.isfinite(autopilot):
            print(f"plot: {args.plot}")
        else:
            print("--plot needs the autopilot's baseline (drop --no-autopilot)", file=sys.stderr)
    envs.close()
    evals.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
