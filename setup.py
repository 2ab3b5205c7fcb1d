"""Build configuration for svmeval's compiled part (metadata lives in pyproject.toml)."""

from setuptools import setup

setup()
