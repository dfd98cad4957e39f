"""Hypothesis strategies shared by the test suite."""
