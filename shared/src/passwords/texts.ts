/**
 * The English words for zxcvbn's feedback keys (@zxcvbn-ts/core `translationKeys`): the reasons and
 * advice the strength meter shows and the gateway answers. Where zxcvbn-ts's own English words would
 * read as jargon, the wording follows GitHub's ("is in a list of passwords commonly used").
 */
import type { TranslationKeys } from '@zxcvbn-ts/core';

export const PASSWORD_TEXTS: TranslationKeys = {
  warnings: {
    straightRow: 'Straight rows of keys on the keyboard are easy to guess.',
    keyPattern: 'Short keyboard patterns are easy to guess.',
    simpleRepeat: 'Repeated characters like "aaa" are easy to guess.',
    extendedRepeat: 'Repeated patterns like "abcabcabc" are easy to guess.',
    sequences: 'Sequences like "abc" or "1234" are easy to guess.',
    recentYears: 'Recent years are easy to guess.',
    dates: 'Dates are easy to guess.',
    topTen: 'This password is in a list of passwords most commonly used on other websites.',
    topHundred: 'This password is in a list of passwords commonly used on other websites.',
    common: 'This password is in a list of passwords commonly used on other websites.',
    similarToCommon: 'This password is too similar to passwords commonly used on other websites.',
    wordByItself: 'Single words are easy to guess.',
    namesByThemselves: 'Names and surnames on their own are easy to guess.',
    commonNames: 'Common names and surnames are easy to guess.',
    userInputs: 'Parts of your name, e-mail address or community name are easy to guess.',
    pwned: 'This password has appeared in a data breach.',
  },
  suggestions: {
    l33t: "Avoid predictable substitutions like '@' for 'a'.",
    reverseWords: 'Avoid common words spelled backwards.',
    allUppercase: 'Capitalize some, but not all letters.',
    capitalization: 'Capitalize more than the first letter.',
    dates: 'Avoid dates and years that are associated with you.',
    recentYears: 'Avoid recent years.',
    associatedYears: 'Avoid years that are associated with you.',
    sequences: 'Avoid common character sequences.',
    repeated: 'Avoid repeated words and characters.',
    longerKeyboardPattern: 'Use longer keyboard patterns and change direction several times.',
    anotherWord: 'Add a few more words; uncommon words are better.',
    useWords: 'Use several words, but avoid common phrases.',
    noNeed: 'You can make a strong password without symbols, numbers or capital letters.',
    pwned: 'If you use this password elsewhere, change it there too.',
  },
  timeEstimation: {
    ltSecond: 'less than a second',
    second: '{base} second',
    seconds: '{base} seconds',
    minute: '{base} minute',
    minutes: '{base} minutes',
    hour: '{base} hour',
    hours: '{base} hours',
    day: '{base} day',
    days: '{base} days',
    month: '{base} month',
    months: '{base} months',
    year: '{base} year',
    years: '{base} years',
    centuries: 'centuries',
  },
};
