"""Interleaved timing: every round runs each variant once, in a shuffled order, so that a machine whose speed drifts
over the minutes (a VM, by up to a third) slows every variant alike and the differences between them hold."""
import random


def interleaved(variants, rounds, warmup, before=lambda: None):
    """The times of each variant (a function returning its time) over `rounds` rounds after `warmup` rounds not kept;
    `before` runs before each variant."""
    random.seed(30)
    times = {name: [] for name in variants}
    for round in range(warmup + rounds):
        order = list(variants)
        random.shuffle(order)
        for name in order:
            before()
            elapsed = variants[name]()
            if round >= warmup:
                times[name].append(elapsed)
    return times
