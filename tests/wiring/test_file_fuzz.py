"""Fuzz: mutated pin maps and config files load or fail with one clean line, never hang.

Hypothesis mutates the shipped pin map and a config with policy tables: bytes flipped,
dropped and repeated, lines swapped, numbers replaced by ``nan``, ``inf``, huge,
negative or non-ASCII ones, values nested deep, the text cut short. Whatever comes out
must load, or fail with an error of the project's naming the file, on one line.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim_launcher.policies import PolicyError
from uno_attack.config import ConfigError, load_policy_tables
from wiring.pinmap import PinMapError, default_pin_map_path, load_pin_map

PIN_MAP_FULL = (b"[pins]\nbutton = 17\nmotor_in1 = 23\nmotor_in2 = 24\nmotor_pwm = 18\n"
                b"beam = 27\nled = 22\nbuzzer = 25\nhopper_empty = 5\n"
                b"[motor]\nduty = 0.8\nreverse_ms = 150\nreverse_tries = 1\n"
                b"[timing]\njam_ms = 600\nmax_ms = 4000\ndebounce_ms = 20\n"
                b"[calibration]\nspin_up_ms = 61.0\nbeam_ms = 25.0\nduties = [0.4, 1.0]\n"
                b"cards_per_second = [3.2, 8.0]\n")
CONFIG = (b'[policies.party]\nfire = [0.3, 0.5, 1.0]\nweights = [10, 8, 5, 2]\n'
          b'description = "a party"\n[policies.calm]\nfire = [0.1, 1.0]\nweights = [1]\n')
SWAPS = [b"nan", b"inf", b"-inf", b"1e999", b"-1", b"0", b"9" * 40, b"\xef\xbc\x91\xef\xbc\x92",
         b"\xd9\xa3", b'"17"', b"true", b"[[[[[[1]]]]]]", b"{a=1}", b"[" * 3000, b"1.5",
         b"0x11", b"1_000"]


@st.composite
def mutated(draw: st.DrawFn, original: bytes) -> bytes:
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["flip", "drop", "insert", "repeat", "swap", "cut",
                                   "number", "swap-lines"]))
        if not data:
            data += draw(st.binary(max_size=20))
            continue
        at = draw(st.integers(0, len(data) - 1))
        if op == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "drop":
            del data[at:at + draw(st.integers(1, 8))]
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8))
        elif op == "repeat":
            data[at:at] = data[at:at + draw(st.integers(1, 40))]
        elif op == "cut":
            del data[at:]
        elif op == "number":
            digits = [i for i, b in enumerate(data) if 0x30 <= b <= 0x39]
            if digits:
                i = draw(st.sampled_from(digits))
                j = i
                while j < len(data) and (0x30 <= data[j] <= 0x39 or data[j] == 0x2E):
                    j += 1
                data[i:j] = draw(st.sampled_from(SWAPS))
        elif op == "swap-lines":
            lines = bytes(data).split(b"\n")
            a, b = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[a], lines[b] = lines[b], lines[a]
            data = bytearray(b"\n".join(lines))
        else:  # swap a value for another kind of value
            eq = bytes(data).find(b"= ", at)
            if eq >= 0:
                end = bytes(data).find(b"\n", eq)
                data[eq + 2:end if end >= 0 else len(data)] = draw(st.sampled_from(SWAPS))
    return bytes(data)


def assert_clean(error: Exception, path: Path) -> None:
    message = str(error)
    assert message.startswith(f"{path}: "), message
    assert "\n" not in message, message
    assert "\r" not in message, message
    assert len(message) < 600, message


FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])


@FUZZ
@given(text=st.one_of(mutated(PIN_MAP_FULL), mutated(default_pin_map_path().read_bytes())))
def test_a_mutated_pin_map_loads_or_says_why(tmp_path: Path, text: bytes) -> None:
    path = tmp_path / "pins.toml"
    path.write_bytes(text)
    try:
        pin_map = load_pin_map(path)
    except PinMapError as error:
        assert_clean(error, path)
        return
    settings_ = pin_map.settings        # a map that loads gives usable timings
    assert 0 < settings_.jam_ms < float("inf")
    assert 0 < settings_.duty <= 1


@FUZZ
@given(text=mutated(CONFIG))
def test_a_mutated_config_loads_or_says_why(tmp_path: Path, text: bytes) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes(text)
    try:
        tables = load_policy_tables(path)
    except (ConfigError, PolicyError) as error:
        assert_clean(error, path)
        return
    for table in tables.values():          # a table that loads is a policy that fires
        assert table.fire[-1] > 0 or table.max_empty_run is not None
        assert sum(table.weights) > 0
