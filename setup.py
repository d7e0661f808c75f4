"""Build the one compiled part: the double-dummy solver (agents/_dds.c). Metadata is in setup.cfg."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("agents._dds", sources=["agents/_dds.c"], extra_compile_args=["-O3", "-std=c11"]),
    ],
)
