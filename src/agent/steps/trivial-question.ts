/**
 * Questions the model may answer from memory at step 1 without a judge: arithmetic, greetings and
 * unit conversions. Everything else (a person, place, date, number or event) is a fact that small
 * models readily make up, so an unsourced answer to it goes through the judges. Deliberately
 * narrow: a false "not trivial" costs one judge call, a false "trivial" accepts an unchecked fact.
 */
export function isTrivialQuestion(question: string): boolean {
  const text = question.trim().toLowerCase();
  return isArithmetic(text) || isGreeting(text) || isConversion(text);
}

// Digits, operators and math words only: "what is 17 * 23?", "2^10", "sqrt(144) + 1".
const arithmeticWords =
  /\b(what|whats|is|are|equals?|calculate|compute|how much|of|plus|minus|times|divided|by|multiplied|over|squared|cubed|percent|sqrt|square root|root|the|sum|product|power|to)\b/g;
const arithmetic = /^[\d\s.,+\-*/×÷^%()=]+$/;

function isArithmetic(text: string): boolean {
  const stripped = text
    .replace(/what's/g, 'whats')
    .replace(arithmeticWords, ' ')
    .replace(/[?!]/g, ' ');
  return /\d/.test(stripped) && /[+\-*/×÷^%]/.test(stripped) && arithmetic.test(stripped);
}

// Short social messages in English, French, Spanish, Portuguese, Russian, German and Italian;
// a greeting with a real question is not one.
const greeting =
  /^(hi|hello|hey|good (morning|afternoon|evening)|thanks|thank you|bonjour|salut|merci|hola|gracias|olá|ola|obrigad[oa]|привет|здравствуйте|спасибо|hallo|danke|ciao|grazie)\b[\s\p{P}]*(there|everyone|all)?[\s\p{P}]*$/u;

function isGreeting(text: string): boolean {
  return greeting.test(text) || /^how are you\b[\s\p{P}]*(today|doing)?[\s\p{P}]*$/u.test(text);
}

const units =
  '(mm|cm|m|km|metres?|meters?|kilometres?|kilometers?|inch(es)?|in|feet|foot|ft|yards?|yd|miles?|mi|mg|g|kg|grams?|kilograms?|pounds?|lbs?|ounces?|oz|tons?|tonnes?|ml|l|litres?|liters?|gallons?|gal|pints?|cups?|°?[cfk]|celsius|fahrenheit|kelvin|degrees?( celsius| fahrenheit)?|seconds?|minutes?|hours?|days?|weeks?|bytes?|kb|mb|gb|tb|kib|mib|gib|mph|km/h|kph|m/s|knots?)';
// "convert 5 km to miles", "100 f in celsius", "how many feet in a mile", "how many grams are in 2 pounds".
const conversions = [
  new RegExp(`^(convert\\s+)?[\\d.,]+\\s*${units}\\s+(to|in|into)\\s+${units}\\s*\\??$`),
  new RegExp(`^(what is|whats)\\s+[\\d.,]+\\s*${units}\\s+(to|in|into)\\s+${units}\\s*\\??$`),
  new RegExp(`^how many\\s+${units}\\s+(are\\s+)?(in|per)\\s+(a|an|one|[\\d.,]+)\\s*${units}\\s*\\??$`),
];

function isConversion(text: string): boolean {
  return conversions.some((pattern) => pattern.test(text));
}
