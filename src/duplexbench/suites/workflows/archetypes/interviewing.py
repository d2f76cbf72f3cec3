"""Interviewing: a structured job-candidate screening recorded during a phone interview."""

from __future__ import annotations

from duplexbench.suites.workflows.catalog import ActionTemplate, Archetype
from duplexbench.suites.workflows.catalog import FieldTemplate as F
from duplexbench.suites.workflows.catalog import LookupTemplate as L

ARCHETYPE = Archetype(
    key="interviewing",
    artifact_type="interview_record",
    noun="candidate screening record",
    tool_noun="screening",
    task="a candidate screening interview",
    titles=("Screen a job candidate for {org}", "Candidate screening call at {org}"),
    instructions=(
        "You run first-round candidate screenings for {org}. The caller is the recruiter "
        "with the candidate's answers; collect them for the {noun} and record them."
    ),
    goal="Get the candidate's screening answers recorded for the hiring team.",
    roles=("human_resources", "management", "operations"),
    fields=(
        F("candidate_name", "person", "Candidate being screened"),
        F("requisition_code", "id", "Job requisition, e.g. RQ-4821-KM", pattern="RQ-DDDD-LL"),
        F("hiring_manager_name", "person", "Manager who owns the opening"),
        F("candidate_email", "email", "Candidate's email address", correctable=False),
        F("candidate_phone", "phone", "Candidate's phone number"),
        F("home_address", "address", "Candidate's street address"),
        F(
            "position_title",
            "text",
            "Role the candidate applies for",
            pool=(
                "data analyst",
                "account manager",
                "site supervisor",
                "payroll specialist",
                "field technician",
            ),
        ),
        F(
            "work_arrangement",
            "enum",
            "Where the candidate would work",
            choices=("on site", "hybrid", "remote"),
        ),
        F(
            "seniority_level",
            "enum",
            "Level of the role",
            choices=("junior", "mid level", "senior"),
        ),
        F(
            "employment_type",
            "enum",
            "Kind of contract offered",
            choices=("full time", "part time", "fixed term"),
        ),
        F("availability_date", "date", "Earliest day the candidate can start"),
        F(
            "salary_expectation",
            "money",
            "Yearly salary expected in dollars",
            low=40000,
            high=180000,
        ),
        F("relevant_experience", "count", "Years of relevant experience", low=1, high=25),
        F("assessment_score", "percent", "Screening test score in percent", low=40, high=100),
        F(
            "sourcing_channel",
            "text",
            "Where the candidate came from",
            pool=("job board", "employee referral", "career fair", "recruiting agency"),
        ),
        F("panelists", "people", "Interviewers for the next round", correctable=False),
        F(
            "core_skills",
            "items",
            "Strongest skills, most important first",
            pool=(
                "spreadsheets",
                "negotiation",
                "scheduling",
                "public speaking",
                "budgeting",
                "team leadership",
            ),
            correctable=False,
        ),
        F("interview_slot", "hours", "When the candidate can interview next", correctable=False),
    ),
    lookups=(
        L(
            "pay_band_maximum",
            "Top of the pay band in dollars",
            ("seniority_level", "employment_type"),
            "Pay band table",
            "money",
            45000,
            190000,
        ),
        L(
            "probation_length",
            "Probation length in days",
            ("employment_type",),
            "Probation periods",
            "days",
            30,
            180,
        ),
        L(
            "equipment_stipend",
            "Monthly equipment stipend in dollars",
            ("work_arrangement",),
            "Equipment stipend table",
            "money",
            20,
            200,
        ),
    ),
    action=ActionTemplate(
        tool="file_screening",
        verb="file the screening record",
        past="filed the screening record",
        description="File the screening record with the hiring team.",
        aliases=("file it", "file the record"),
    ),
    always=("candidate_name", "requisition_code", "hiring_manager_name"),
)
