"""The flawed agent of the worked example (tests/scoring/test_worked_example.py) and
judge-cache lines that accept a prediction: shared with the trust tests."""

from __future__ import annotations

import json

from duplexbench.agents import AgentToolCall, AgentTurn, ScriptedAgent
from duplexbench.items._grading import GraderSpec
from duplexbench.scoring._judge import PROMPT_VERSION
from duplexbench.values._graders import canonical_text

FIELDS = {
    "employee_name": "Priya Raman",
    "employee_id": "HR-20931",
    "date_of_birth": "07/14/1988",
    "phone": "(555) 201-7788",
    "home_address": "42 Birch St., Apt 5",
    "qualifying_event": "Birth",
    "coverage_tier": "family",
    "dependents": "Maya Raman",  # wrong: Arjun is missing
    "medical_plan": "PPO Silver",
    "dental_plan": "dental plus",
    "vision_plan": "Basic",  # wrong for the deterministic grader only
    "beneficiary": "Maya Raman",  # wrong
    "monthly_premium": 389.0,  # wrong: guessed, not looked up
    "effective_date": "2026-03-10",  # wrong: the event date, not the policy's
}


def flawed_agent() -> ScriptedAgent:
    return ScriptedAgent(
        [
            AgentTurn(
                say="I have filled everything in. Shall I submit your enrollment?",
                tool_calls=(
                    AgentToolCall("update_enrollment", {"fields": FIELDS}),
                    AgentToolCall("mark_enrollment_ready", {}),
                ),
            ),
            AgentTurn(
                say="Submitted. Goodbye!",
                tool_calls=(AgentToolCall("submit_enrollment", {}),),
                end_call=True,
            ),
        ]
    )


def cache_line(field: str, grader: GraderSpec, predicted: object, gold: object) -> str:
    return json.dumps(
        {
            "model": "judge-x",
            "prompt_version": PROMPT_VERSION,
            "field": field,
            "predicted": canonical_text(grader, predicted),
            "gold": canonical_text(grader, gold),
            "correct": True,
            "reason": "same plan",
        }
    )
