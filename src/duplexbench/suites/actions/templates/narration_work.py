"""Narrations for meeting and customer service topics (see narration_social.py)."""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Story

STORIES_WORK: dict[str, tuple[Story, ...]] = {
    "budget": (
        Story(
            (
                "Let me walk you through where we are on spending.",
                "We're at about sixty percent of the annual budget.",
                "Most of that went on the new booking system.",
                "Marketing has been quite careful this year.",
                "So overall we're in a reasonable position for the last quarter.",
            ),
            "Good. Should we keep some of the *marketing* underspend as a *reserve*?",
            3,
            "Oddly, the invoice says the system was free, but we paid for it twice.",
            "Hmm? *Free*, but we *paid* twice? Can you explain that?",
        ),
        Story(
            (
                "I spoke to finance yesterday about next year.",
                "They're expecting revenue to grow by about five percent.",
                "So they're open to a small increase in our budget.",
                "But they want a clear plan for what we'd spend it on.",
                "I think we should prepare that together this week.",
            ),
            "Agreed. Let's draft the *plan* this week, starting with our top *priorities*.",
            3,
            "They also said our budget will go up and down at the same time.",
            "Hmm? Up and *down* at the same *time*? What did they mean by that?",
        ),
    ),
    "hiring": (
        Story(
            (
                "The interviews for the designer role went well this week.",
                "We saw five candidates in total.",
                "Two of them stood out with really strong portfolios.",
                "The panel agreed on one of them fairly quickly.",
                "We're planning to make her an offer tomorrow.",
            ),
            "Great. Should we keep the other strong *candidate* warm in case the *offer* "
            "falls through?",
            3,
            "Strangely, her references both said they'd never heard of her.",
            "Hmm? Her *references* had never heard of her? Shouldn't we look into that?",
        ),
        Story(
            (
                "We've had a lot of applications for the support role.",
                "Nearly two hundred in the first week.",
                "The recruiter has narrowed it down to twelve.",
                "We'll do short phone screens next week.",
                "Then the best four come in for a proper interview.",
            ),
            "Sounds like a solid process. Who's doing the *phone screens*?",
            2,
            "Although the job ad hasn't actually been published yet.",
            "Hmm? The *ad* isn't *published* yet? Then where did the applications come from?",
        ),
    ),
    "product_launch": (
        Story(
            (
                "The launch preparations are mostly on track.",
                "The website changes are finished and tested.",
                "The sales team had their training on Monday.",
                "We've also lined up three customers to give quotes.",
                "The only open item is the final pricing sign-off.",
            ),
            "Good. Who needs to sign off the *pricing*, and by *when*?",
            4,
            "Though none of the customers giving quotes has actually used the product.",
            "Hmm? They haven't *used* the product? Can they really give *quotes*?",
        ),
        Story(
            (
                "I went through the early feedback from our beta users.",
                "Most of them love the new dashboard.",
                "A few found the setup a bit confusing.",
                "We've already simplified the first screen.",
                "I think we're in good shape for the launch.",
            ),
            "Great. Should we test the simpler *setup* with a few *beta* users again?",
            2,
            "The odd thing is, the feedback arrived before we'd sent out the beta.",
            "Hmm? The *feedback* came before the *beta* went out? How?",
        ),
    ),
    "schedule": (
        Story(
            (
                "Let me give a quick update on the timeline.",
                "The design phase finished last Friday.",
                "Development started on Monday, right on time.",
                "The team is confident about the first milestone.",
                "Testing is still planned for the start of next month.",
            ),
            "Great. Is the *testing* team booked for next *month*?",
            4,
            "Although apparently the first milestone was moved to last week.",
            "Hmm? The *milestone* was moved to *last week*? That's already passed.",
        ),
        Story(
            (
                "The client asked us to add a reporting feature.",
                "We looked at what it would take.",
                "It's about three weeks of extra work.",
                "We could fit it in if we move the launch slightly.",
                "I'd like us to agree on that today.",
            ),
            "Let's agree today; a short *delay* seems worth it for the *reporting* feature.",
            3,
            "But the client also said the launch date can't move at all.",
            "Hmm? The *launch* date can't move? Then how do we fit in three *weeks*?",
        ),
    ),
    "incident_review": (
        Story(
            (
                "Here's what happened during the outage on Tuesday.",
                "Around nine, the payment service started timing out.",
                "The on-call engineer spotted it within five minutes.",
                "We rolled back the latest release, and things recovered.",
                "In total, payments were down for about twenty minutes.",
            ),
            "Thanks. Do we know what in the *release* caused the *timeouts*?",
            3,
            "Oddly, the release we rolled back had never actually been deployed.",
            "Hmm? The *release* was never *deployed*? So what did the rollback fix?",
        ),
        Story(
            (
                "I've been looking into why the alerts were late.",
                "It turns out the alert thresholds were set a year ago.",
                "Traffic has doubled since then.",
                "So the alerts only fired when things were already very bad.",
                "I've drafted new thresholds for us to review.",
            ),
            "Good work. Let's review the new *thresholds* and revisit them as *traffic* grows.",
            3,
            "Strangely, they also fired every night when nothing was wrong.",
            "Hmm? They fired every *night* with nothing *wrong*? Why would that be?",
        ),
    ),
    "billing": (
        Story(
            (
                "I've been a customer for about five years now.",
                "I've always paid by direct debit without any problems.",
                "This month the payment went out twice.",
                "So now my bank account is overdrawn.",
                "I'd really like this sorted out quickly.",
            ),
            "I'm sorry about that. I'll *refund* the duplicate *payment* today.",
            3,
            "And the second payment was for a phone I returned years ago.",
            "Hmm? For a *phone* you *returned*? Let me look into that.",
        ),
        Story(
            (
                "I moved house last month.",
                "I updated my address online straight away.",
                "But my bill still went to the old flat.",
                "The new tenant kindly forwarded it to me.",
                "Can you make sure it's fixed for next time?",
            ),
            "Of course. I'll correct the *address* so your next *bill* comes to your new home.",
            3,
            "Oh, and the bill is addressed to someone called Mister Blue.",
            "Hmm? *Mister Blue*? That's not your *name*, is it?",
        ),
    ),
    "delivery": (
        Story(
            (
                "I ordered a new desk chair about two weeks ago.",
                "The website said it would come in three to five days.",
                "The tracking hasn't changed since last Monday.",
                "I've been working from the kitchen table ever since.",
                "My back is really starting to feel it.",
            ),
            "I'm sorry. I'll check with the courier and send a *replacement* *chair* if it's lost.",
            3,
            "And now the tracking says it was delivered in Norway.",
            "Hmm? Delivered in *Norway*? Let me check that *tracking* right away.",
        ),
        Story(
            (
                "My weekly grocery delivery came this morning.",
                "Most of it was fine.",
                "But the frozen food had completely melted.",
                "The driver said the van's freezer was broken.",
                "I had to throw a lot of it away.",
            ),
            "I'm sorry. I'll *refund* the *frozen* items you had to throw away.",
            2,
            "Oddly, the receipt says I ordered forty bananas.",
            "Hmm? *Forty bananas*? Did you actually order that many?",
        ),
    ),
    "returns": (
        Story(
            (
                "I bought a coffee machine from you last month.",
                "It worked fine for the first two weeks.",
                "Then it started leaking water underneath.",
                "I've tried cleaning it the way the manual says.",
                "It still leaks every time I use it.",
            ),
            "Sorry about that. I'll arrange a *return* and send you a *replacement*.",
            4,
            "The manual also says the machine should be kept in the freezer.",
            "Hmm? The *manual* says the *freezer*? That can't be right.",
        ),
        Story(
            (
                "I returned a pair of boots three weeks ago.",
                "I used the label you sent me.",
                "The post office gave me a receipt.",
                "But I still haven't seen a refund.",
                "Could you check what's going on?",
            ),
            "Of course. Let me track the *boots* and chase the *refund* for you.",
            4,
            "And yesterday the same boots were delivered back to me.",
            "Hmm? The *boots* were delivered *back* to you? That's strange.",
        ),
    ),
    "account_access": (
        Story(
            (
                "I've been trying to log in since this morning.",
                "I typed my password very carefully.",
                "It said my account was locked.",
                "So I asked for a reset link.",
                "But the link says it has already been used.",
            ),
            "Sorry about that. I'll *unlock* your *account* and send a fresh link.",
            3,
            "Then it said I'd last changed my password on a date two years from now.",
            "Hmm? A *password* change dated in the *future*? That's odd.",
        ),
        Story(
            (
                "My son set up my account for me last year.",
                "He wrote my password down on a card.",
                "I've lost the card somewhere.",
                "And he's travelling abroad for a month.",
                "So I can't get into my account at all.",
            ),
            "No problem. We can verify you and set a new *password*, so you won't need the *card*.",
            3,
            "Although I logged in fine yesterday without it.",
            "Hmm? You logged in *yesterday* without the *card*? What changed today?",
        ),
    ),
    "technical_fault": (
        Story(
            (
                "Our internet has been really unreliable this week.",
                "It works fine in the morning.",
                "Then every evening it slows down to almost nothing.",
                "I work from home, so this is a big problem.",
                "I've already restarted the router several times.",
            ),
            "Sorry. I'll run a *line test* and check whether the *evening* slowdowns come "
            "from our network.",
            3,
            "Oddly, it only happens when my neighbour's garden lights are on.",
            "Hmm? Only when your *neighbour*'s *lights* are on? Interesting.",
        ),
        Story(
            (
                "We got the new router installed on Saturday.",
                "The engineer set everything up and tested it.",
                "It was fast all weekend.",
                "But on Monday the wifi disappeared completely.",
                "The lights on the front are all off now.",
            ),
            "If all the *lights* are off, it may be the *power* supply; let's check that first.",
            3,
            "The engineer also told us to wrap it in foil to make it faster.",
            "Hmm? Wrap it in *foil*? That would actually block the *wifi*.",
        ),
    ),
}
"""Per topic (meeting and customer service): narrations."""
