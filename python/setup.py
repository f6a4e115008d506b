"""Builds hittest._core from HitTestKit's C core (CSources/CHitTest), compiled here from source.

The C sources are found through this file's real location: in the repository they are
``../CSources/CHitTest``; they are copied into ``_csrc/`` next to this file at build time (so the
extension's sources are inside the project, as setuptools wants, and an sdist carries them).
An sdist or a copy of this directory without the repository next to it uses ``_csrc/`` as it is.
"""
import os
import shutil
import sys

from setuptools import Extension, setup

HERE = os.path.dirname(os.path.realpath(__file__))
REPO_C = os.path.normpath(os.path.join(HERE, "..", "CSources", "CHitTest"))
VENDORED = os.path.join(HERE, "_csrc")


def vendor_c_sources() -> None:
    """Copies the repository's C core into _csrc/ (fresh each build); keeps _csrc/ otherwise."""
    if os.path.isfile(os.path.join(REPO_C, "include", "hittest.h")):
        if os.path.isdir(VENDORED):
            shutil.rmtree(VENDORED)
        shutil.copytree(REPO_C, VENDORED, ignore=shutil.ignore_patterns("*.modulemap"))
    if not os.path.isfile(os.path.join(VENDORED, "include", "hittest.h")):
        sys.exit(
            "hittest: cannot find HitTestKit's C core: expected %s (the repository's "
            "CSources/CHitTest next to python/) or a vendored copy in %s" % (REPO_C, VENDORED))


vendor_c_sources()
os.chdir(HERE)
c_files = sorted(f for f in os.listdir("_csrc") if f.endswith(".c"))
extra = ["-std=c11", "-O2", "-ffp-contract=off", "-fvisibility=hidden"]
if sys.platform == "win32":
    extra = []

setup(
    ext_modules=[
        Extension(
            "hittest._core",
            sources=["src/hittest/_core.c"] + ["_csrc/" + f for f in c_files],
            include_dirs=["_csrc/include", "_csrc"],
            define_macros=[("NDEBUG", "1")],
            extra_compile_args=extra,
            libraries=[] if sys.platform == "win32" else ["m"],
        )
    ],
)
