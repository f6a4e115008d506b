"""8 Python threads over one tree give the answers of one thread (the GIL is released in C)."""
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import hittest
from conftest import FIXTURES


def test_eight_threads_equal_one():
    scene = hittest.load_scene(FIXTURES / "scene.json")
    rng = np.random.default_rng(8)
    xs = rng.uniform(-50, 450, 400_000)
    ys = rng.uniform(-50, 900, 400_000)
    one = scene.hit_test(xs, ys)
    ids_one = scene.hit_test_ids(xs[:50_000], ys[:50_000])
    with ThreadPoolExecutor(8) as pool:
        # Every thread the whole array, several times, and the array in 8 slices at once.
        whole = list(pool.map(lambda _: scene.hit_test(xs, ys), range(16)))
        slices = np.array_split(np.arange(xs.size), 8)
        parts = list(pool.map(lambda idx: scene.hit_test(xs[idx], ys[idx]), slices))
        ids = list(pool.map(lambda _: scene.hit_test_ids(xs[:50_000], ys[:50_000]), range(8)))
        # Small calls (the exact walk, no answer grid) from another root, at the same time.
        small = list(pool.map(lambda i: scene.tree.hit_test(xs[i:i + 1000], ys[i:i + 1000], root=1), range(0, 80_000, 10_000)))
    for r in whole:
        assert np.array_equal(r, one)
    assert np.array_equal(np.concatenate(parts), one)
    assert all(r == ids_one for r in ids)
    for i, r in zip(range(0, 80_000, 10_000), small):
        assert np.array_equal(r, scene.tree.hit_test(xs[i:i + 1000], ys[i:i + 1000], root=1))
    assert len(set(one.tolist())) > 20


def test_mutation_while_another_thread_queries_is_refused_not_raced():
    scene = hittest.load_scene(FIXTURES / "scene.json")
    xs = np.random.default_rng(1).uniform(0, 400, 3_000_000)
    refused = []

    def mutate():
        # Tries while the big query may be running; either it runs before or after (fine),
        # or it is refused with HT_E_BUSY: never both at once.
        for _ in range(200):
            try:
                scene.tree.set_alpha(5, 1.0)
            except hittest.HitTestError as e:
                assert e.status_name == "HT_E_BUSY"
                refused.append(e)

    with ThreadPoolExecutor(2) as pool:
        q = pool.submit(scene.hit_test, xs, xs)
        m = pool.submit(mutate)
        q.result()
        m.result()
    assert np.array_equal(scene.hit_test(xs, xs), q.result())
