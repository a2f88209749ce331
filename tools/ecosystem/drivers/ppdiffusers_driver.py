"""ppdiffusers 0.29.0: a small UNet2DModel and AutoencoderKL from configs with seeded weights;
the DDPM training objective for three AdamW steps; a DDIM scheduler loop by hand and the
library's own DDIMPipeline (seeded generator); VAE encode/decode; save/reload."""
import os

import numpy as np
import paddle
import ppdiffusers  # noqa: F401
from ppdiffusers import (AutoencoderKL, DDIMPipeline, DDIMScheduler, DDPMScheduler,
                         UNet2DModel)

from _common import Driver, jittered, seed_params, train_steps

d = Driver("ppdiffusers")
state = {}
IMAGES = jittered(np.random.RandomState(0).uniform(-1, 1, (2, 3, 16, 16)).astype("float32"))
NOISE = np.random.RandomState(1).standard_normal((2, 3, 16, 16)).astype("float32")


def small_unet():
    unet = UNet2DModel(sample_size=16, in_channels=3, out_channels=3, layers_per_block=1,
                       block_out_channels=(16, 32), norm_num_groups=8,
                       down_block_types=("DownBlock2D", "AttnDownBlock2D"),
                       up_block_types=("AttnUpBlock2D", "UpBlock2D"))
    seed_params(unet)
    return unet


@d.stage("unet_train")
def _():
    unet = small_unet()
    sched = DDPMScheduler(num_train_timesteps=50)
    x0 = paddle.to_tensor(IMAGES)
    noise = paddle.to_tensor(NOISE)
    t = paddle.to_tensor([3, 41], dtype="int64")
    noisy = sched.add_noise(x0, noise, t)
    d.put("ddpm.noisy", noisy)
    unet.eval()
    d.put("unet.out", unet(noisy, t).sample)
    unet.train()
    d.put("unet.losses", train_steps(
        unet, lambda: paddle.nn.functional.mse_loss(unet(noisy, t).sample, noise)))
    unet.eval()
    state["unet"] = unet


@d.stage("ddim_loop")
def _():
    unet = state["unet"]
    sched = DDIMScheduler(num_train_timesteps=50)
    sched.set_timesteps(5)
    d.put("ddim.timesteps", sched.timesteps)
    x = paddle.to_tensor(NOISE[:1])
    with paddle.no_grad():
        for t in sched.timesteps:
            x = sched.step(unet(x, t).sample, t, x).prev_sample
    d.put("ddim.sample", x)


@d.stage("ddim_pipeline")
def _():
    pipe = DDIMPipeline(unet=state["unet"], scheduler=DDIMScheduler(num_train_timesteps=50))
    image = pipe(batch_size=1, generator=paddle.Generator().manual_seed(7),
                 num_inference_steps=4, output_type="np").images
    d.put("pipeline.image", np.asarray(image))


@d.stage("unet_reload")
def _():
    path = os.path.join(d.tmp, "unet")
    unet = state["unet"]
    unet.save_pretrained(path)
    again = UNet2DModel.from_pretrained(path)
    again.eval()
    x = paddle.to_tensor(NOISE[:1])
    t = paddle.to_tensor([10], dtype="int64")
    d.put("unet.reload_maxdiff", float((again(x, t).sample - unet(x, t).sample).abs().max()))


@d.stage("vae")
def _():
    vae = AutoencoderKL(in_channels=3, out_channels=3, block_out_channels=(16, 32),
                        down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
                        up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"),
                        latent_channels=4, norm_num_groups=8, sample_size=16)
    seed_params(vae)
    vae.eval()
    x = paddle.to_tensor(IMAGES)
    dist = vae.encode(x).latent_dist
    d.put("vae.mean", dist.mean)
    d.put("vae.logvar", dist.logvar)
    d.put("vae.decoded", vae.decode(dist.mean).sample)
    vae.train()
    d.put("vae.losses", train_steps(
        vae, lambda: paddle.nn.functional.mse_loss(vae.decode(vae.encode(x).latent_dist.mean).sample, x)))


d.finish()
