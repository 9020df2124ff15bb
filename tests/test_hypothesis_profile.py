"""The property tests run under the suite's Hypothesis profile (``conftest.py``): no deadline, so a
busy machine cannot fail a property for its time alone."""

from hypothesis import HealthCheck, settings

#: A test's own settings (as the rule tests give them: a number of examples) keep the profile's.
_OWN = settings(max_examples=3)


def test_the_profile_has_no_deadline_and_no_slowness_check() -> None:
    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check


def test_a_tests_own_settings_keep_the_profiles_deadline() -> None:
    assert _OWN.max_examples == 3
    assert _OWN.deadline is None

