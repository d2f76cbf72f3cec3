"""Narrations for casual conversation and interview topics.

A story is told one sentence per segment (continuous speech, backchannel,
and the talk around an Interrupt). Its puzzle is a surprising or confusing
sentence inserted at `puzzle_at` for backchannel.uncertainty; `clarify` is
the "hmm?" and the clarifying question it calls for.
"""

from __future__ import annotations

from duplexbench.suites.actions.templates.model import Story

STORIES_SOCIAL: dict[str, tuple[Story, ...]] = {
    "travel": (
        Story(
            (
                "Last summer we drove all the way down the coast of Portugal.",
                "We started in Porto and stopped in a different town every night.",
                "The roads were quiet, and the little fishing villages were beautiful.",
                "In the south we spent three days just swimming and eating grilled fish.",
                "By the end of it, I honestly didn't want to come home.",
            ),
            "That sounds wonderful. Which *town* on the *coast* did you like best?",
            2,
            "On the second day the rental company told us our car had never left their garage.",
            "Hmm? The *car* never left the *garage*? What did they mean?",
        ),
        Story(
            (
                "We finally went to Japan in the spring.",
                "We spent the first week in Tokyo, mostly walking around the neighbourhoods.",
                "Then we took the fast train down to Kyoto.",
                "The temples there were even more beautiful than in the photos.",
                "We're already talking about going back next year.",
            ),
            "Lovely. What was your favourite *temple* in *Kyoto*?",
            3,
            "Somehow the hotel in Kyoto had us booked into two different rooms for the same night.",
            "Hmm? Two *rooms* for the same *night*? How did that happen?",
        ),
    ),
    "cooking": (
        Story(
            (
                "On Saturday I finally tried making fresh pasta from scratch.",
                "I watched a few videos first, so I roughly knew what to do.",
                "The dough came together more easily than I expected.",
                "Rolling it out thin took ages, but it was actually quite relaxing.",
                "We ate it with a simple tomato sauce, and it was honestly delicious.",
            ),
            "That's great! Will you make *pasta* again, maybe with a different *sauce*?",
            4,
            "The recipe said to boil it for forty minutes, so that's what I did.",
            "Hmm? *Forty minutes*? Fresh *pasta* usually only needs two or three.",
        ),
        Story(
            (
                "My grandmother's apple cake recipe turned up in an old box last week.",
                "It's written on a card in her handwriting, with little notes in the margin.",
                "I made it on Sunday, following every step exactly.",
                "The whole kitchen smelled just like her house used to.",
                "My mum actually cried a little when she tasted it.",
            ),
            "What a lovely find. Will you keep making her *apple cake* for the *family*?",
            3,
            "The card says to bake it for three hours at two hundred and fifty degrees.",
            "Hmm? *Three hours* at that *temperature*? That sounds like a mistake on the card.",
        ),
    ),
    "sports": (
        Story(
            (
                "I joined a running club a couple of months ago.",
                "We meet every Tuesday evening down by the river.",
                "At first I was always at the back, trying to keep up.",
                "Now I can run the whole loop without stopping.",
                "Next month a few of us are doing our first ten k together.",
            ),
            "That's great progress! Good luck with the *ten k* with the *club*.",
            3,
            "The coach says the best way to get faster is to never run fast.",
            "Hmm? Never run *fast* to get *faster*? How does that work?",
        ),
        Story(
            (
                "Our five-a-side team played the final on Sunday.",
                "We were two goals down at half-time.",
                "Then our goalkeeper started shouting at everyone to push forward.",
                "We scored twice in the last ten minutes and won on penalties.",
                "We celebrated in the pub until they closed.",
            ),
            "What a comeback! Who scored the winning *penalty*?",
            2,
            "At half-time the referee told us we'd been playing with one player too many.",
            "Hmm? One *player* too many? Had nobody counted?",
        ),
    ),
    "movies": (
        Story(
            (
                "We went to see the new space film at the cinema on Friday.",
                "The opening scene was honestly breathtaking on the big screen.",
                "The story was a bit slow in the middle, though.",
                "But the last half hour was so tense that nobody moved.",
                "I'd definitely go and see it again.",
            ),
            "Sounds great! Did the *ending* live up to that *opening*?",
            3,
            "Strangely, the main character dies in the first scene and then narrates the film.",
            "Hmm? The *main character* dies in the *first scene*? So who's narrating?",
        ),
        Story(
            (
                "I've been rewatching an old comedy series from the nineties.",
                "I used to watch it with my brother every Friday night.",
                "Some of the jokes have aged badly, but most still work.",
                "The wedding episode still makes me laugh out loud.",
                "It's become my little treat at the end of the week.",
            ),
            "What a nice ritual. Do you ever watch the *series* with your *brother* again?",
            2,
            "The weird thing is, I remember a whole season that apparently was never made.",
            "Hmm? A whole *season* that was never *made*? What do you remember from it?",
        ),
    ),
    "family": (
        Story(
            (
                "My daughter had her first school play last week.",
                "She was a tree, and she was very proud of it.",
                "She practised standing still in the living room for days.",
                "On the night she didn't move once, even when the scenery fell over.",
                "Afterwards she told us she wants to be an actress now.",
            ),
            "That's adorable! A steady *tree* is a great start for an *actress*.",
            3,
            "Her teacher told me afterwards that the play didn't have any trees in it.",
            "Hmm? No *trees* in the *play*? So who was she playing?",
        ),
        Story(
            (
                "We had a big family dinner for my grandad's ninetieth.",
                "Everyone came, even my cousins from Canada.",
                "My aunt made his favourite lamb stew.",
                "Grandad gave a little speech that had everyone in tears.",
                "We stayed up late looking through old photo albums.",
            ),
            "What a special evening. What did your *grandad* say in his *speech*?",
            2,
            "The funny thing is, he kept insisting he was only turning sixty.",
            "Hmm? He said he was *sixty*? Was he joking about his *age*?",
        ),
    ),
    "experience": (
        Story(
            (
                "In my last role I coordinated the move of our whole office to a new building.",
                "It involved about two hundred people and three departments.",
                "I built a schedule so each team moved on a different weekend.",
                "We kept a shared checklist so nothing was forgotten.",
                "In the end, nobody lost a single working day.",
            ),
            "Impressive. How did you get the three *departments* to agree on the *schedule*?",
            3,
            "Halfway through, we found out the new building didn't have any desks.",
            "Hmm? The new building had no *desks*? How did you handle that?",
        ),
        Story(
            (
                "Before that I worked for a festival company for three summers.",
                "I started out selling tickets at the gate.",
                "By the third year I was running the volunteer team.",
                "That meant scheduling about sixty people across four stages.",
                "It taught me a lot about staying calm when plans change.",
            ),
            "Great experience. What was hardest about scheduling sixty *volunteers*?",
            2,
            "The odd part was that the festival was always held in the middle of winter.",
            "Hmm? In *winter*? I thought you said it was in the *summer*.",
        ),
    ),
    "strengths": (
        Story(
            (
                "One thing I'm good at is keeping projects organised.",
                "I always start with a clear plan and a shared tracker.",
                "Every Monday I check what's late and who needs help.",
                "That way problems come up early, not at the deadline.",
                "My last team said it made their weeks much calmer.",
            ),
            "That's useful here. What *tracker* did you use with the *team*?",
            3,
            "Funnily enough, I've never actually used a calendar.",
            "Hmm? You've never used a *calendar*? How do you keep track of *deadlines*?",
        ),
        Story(
            (
                "I'm good at calming tense situations.",
                "Last year two of our suppliers were arguing about a delivery.",
                "I got them both on a call and let each of them explain their side.",
                "Then we agreed on a simple plan with clear dates.",
                "Both of them still work with us today.",
            ),
            "Nicely handled. How did you keep that *call* with both *suppliers* calm?",
            2,
            "Neither of them spoke English or any other language I know.",
            "Hmm? Neither spoke a *language* you know? How did you talk to them?",
        ),
    ),
    "conflict": (
        Story(
            (
                "Once, two designers disagreed about a client's new logo.",
                "Each of them had spent weeks on their own version.",
                "I suggested we show both to the client, with the pros and cons.",
                "The client picked a mix of the two.",
                "Both designers ended up happy with the result.",
            ),
            "Good approach. How did you present the two *versions* to the *client*?",
            3,
            "Then the client told us they didn't actually need a logo at all.",
            "Hmm? They didn't need a *logo*? Then why did they ask for one?",
        ),
        Story(
            (
                "Early in my career I clashed with a senior colleague.",
                "He kept changing my reports without telling me.",
                "I asked him for a coffee and told him how it affected me.",
                "It turned out he thought he was helping.",
                "After that, he sent me his suggestions instead.",
            ),
            "That *conversation* clearly helped. What did you learn about working with "
            "senior *colleagues*?",
            2,
            "The strange thing is, he didn't even have access to my reports.",
            "Hmm? He had no *access* to your *reports*? Then how was he changing them?",
        ),
    ),
    "goals": (
        Story(
            (
                "Over the next few years I want to grow into a team lead.",
                "I've already started mentoring two junior coordinators.",
                "I'm also taking an evening course in leadership.",
                "My plan is to take on a bigger project next year.",
                "After that, I'd like to lead a small team myself.",
            ),
            "A clear plan. What have you learned from *mentoring* so far?",
            3,
            "The course is taught entirely by people who've never managed anyone.",
            "Hmm? Taught by people who've never *managed* anyone? What's the *course* like?",
        ),
        Story(
            (
                "I'd like to work abroad at some point.",
                "I spent a semester in Spain when I was a student.",
                "It taught me how to work with people from different cultures.",
                "Your company has offices in five countries, which really appeals to me.",
                "I'd love to do a project in one of them one day.",
            ),
            "We do have *international* projects. Which *office* interests you most?",
            3,
            "Although, to be honest, I've never actually left the country.",
            "Hmm? You've never left the *country*? I thought you studied in *Spain*.",
        ),
    ),
    "motivation": (
        Story(
            (
                "I first heard about your organisation through your clean water project.",
                "A friend volunteered on it and told me all about it.",
                "I read everything I could find about it afterwards.",
                "What struck me was how well it was organised.",
                "That's exactly the kind of work I want to be part of.",
            ),
            "Thank you. Which part of the *clean water* project would you most like to *work* on?",
            3,
            "Apparently the whole project was run by just one person with a phone.",
            "Hmm? *One person* ran the whole *project*? That sounds surprising.",
        ),
        Story(
            (
                "I've been in corporate jobs for six years now.",
                "The pay is good, but I often don't see the point of my work.",
                "Last year I organised a charity run in my spare time.",
                "Seeing people take part made me happier than any bonus.",
                "That's why I want to move into the non-profit sector.",
            ),
            "That's a clear reason. What did you enjoy most about organising the *charity run*?",
            3,
            "Nobody actually ran in it, but it still raised a lot of money.",
            "Hmm? Nobody *ran*, but it raised *money*? How did that work?",
        ),
    ),
}
"""Per topic (casual conversation and interview): narrations."""
