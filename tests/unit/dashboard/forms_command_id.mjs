// Runs an organise form (views/organise/forms.js, actionForm) on a DOM made here: pressed again
// after a failure, it resends the same command id (a lost answer's retry), but once the API says
// the id was spent on another command (409 command-id-reused: the form was changed after a lost
// answer) it sends what it holds under a new id. Prints the ids sent (JSON): what
// test_forms_command_id_js.py checks.
import "./fake_dom.mjs";

const { ApiError } = await import("../../../services/dashboard/static/js/api.js");
const { actionForm } = await import("../../../services/dashboard/static/js/views/organise/forms.js");

const sent = [];
const answers = [
  new ApiError(503, { type: "https://bang-league.dev/problems/unavailable", detail: "the database is away" }),
  new ApiError(409, { type: "https://bang-league.dev/problems/command-id-reused", detail: "spent" }),
  { done: true },
];
const form = actionForm({
  label: "Void a game",
  submit: "Void",
  send: async (id) => {
    sent.push(id);
    const answer = answers.shift();
    if (answer instanceof Error) throw answer;
    return answer;
  },
  done: () => "Voided.",
});
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
for (let i = 0; i < 3; i += 1) {
  form.listeners.submit({ preventDefault() {} });
  await settle();
}
process.stdout.write(JSON.stringify({ sent }));
