// Words the generated audience is made of: names, domains, list names and the 20 custom attributes.
import type { AttributeType } from '../../gateway/src/contracts.ts';

export const FIRST_NAMES = [
  'Ada', 'Alan', 'Alice', 'Amara', 'Ana', 'Andrei', 'Anna', 'Arjun', 'Aya', 'Ben',
  'Bianca', 'Boris', 'Carla', 'Carlos', 'Chen', 'Chloe', 'Dara', 'David', 'Diego', 'Elena',
  'Elif', 'Emil', 'Emma', 'Erik', 'Eva', 'Farah', 'Felix', 'Fatima', 'Gabriel', 'Grace',
  'Hana', 'Hugo', 'Ines', 'Ivan', 'Jana', 'Jonas', 'Juan', 'Julia', 'Kai', 'Kenji',
  'Lara', 'Leila', 'Leo', 'Lina', 'Luca', 'Maya', 'Marco', 'Maria', 'Mateo', 'Mia',
  'Nadia', 'Nico', 'Nina', 'Noah', 'Olga', 'Omar', 'Oscar', 'Paula', 'Pedro', 'Priya',
  'Rafael', 'Rania', 'Ravi', 'Rosa', 'Ruth', 'Sami', 'Sara', 'Sofia', 'Stefan', 'Tara',
  'Theo', 'Tom', 'Uma', 'Valentina', 'Victor', 'Wei', 'Yara', 'Yusuf', 'Zoe', 'Zara',
  'Aiko', 'Bruno', 'Clara', 'Dmitri', 'Esther', 'Finn', 'Greta', 'Hamza', 'Irene', 'Jakob',
  'Kofi', 'Lucia', 'Milan', 'Nora', 'Otto', 'Pia', 'Quentin', 'Rohan', 'Selin', 'Tariq',
]; // prettier-ignore

export const LAST_NAMES = [
  'Abe', 'Adeyemi', 'Alvarez', 'Andersen', 'Bauer', 'Becker', 'Bianchi', 'Brown', 'Carter', 'Castro',
  'Chen', 'Costa', 'Cruz', 'Dubois', 'Dumont', 'Eriksson', 'Fischer', 'Fontaine', 'Garcia', 'Gomez',
  'Gupta', 'Hansen', 'Hoffmann', 'Horvat', 'Ibrahim', 'Ito', 'Jensen', 'Johansson', 'Kaya', 'Kim',
  'Kowalski', 'Kruger', 'Larsen', 'Laurent', 'Lee', 'Lopez', 'Martin', 'Meyer', 'Moreau', 'Muller',
  'Nakamura', 'Nguyen', 'Novak', 'Okafor', 'Olsen', 'Park', 'Patel', 'Perez', 'Petrov', 'Popescu',
  'Quinn', 'Ramos', 'Reyes', 'Richter', 'Rossi', 'Ruiz', 'Santos', 'Sato', 'Schmidt', 'Schneider',
  'Silva', 'Singh', 'Smith', 'Sousa', 'Suzuki', 'Tanaka', 'Taylor', 'Torres', 'Vargas', 'Vogel',
  'Wagner', 'Walker', 'Wang', 'Weber', 'Wilson', 'Wolf', 'Wright', 'Yamamoto', 'Yilmaz', 'Zhang',
  'Almeida', 'Bakker', 'Conti', 'Diaz', 'Esposito', 'Ferrari', 'Gallo', 'Haas', 'Ivanova', 'Jovanovic',
  'Keller', 'Lindqvist', 'Mancini', 'Nilsson', 'Ortiz', 'Pereira', 'Romano', 'Sanchez', 'Toth', 'Zimmermann',
]; // prettier-ignore

export const DOMAINS = [
  'gmail.com', 'proton.me', 'outlook.com', 'yahoo.com', 'icloud.com', 'fastmail.com', 'gmx.de', 'web.de',
  'mail.ru', 'hey.com', 'tutanota.com', 'zoho.com', 'aol.com', 'hotmail.com', 'live.com', 'qq.com',
  'naver.com', 'orange.fr', 'libero.it', 'dao.xyz',
]; // prettier-ignore

const LIST_THEMES = [
  'Newsletter', 'Genesis holders', 'Discord members', 'Airdrop 2025', 'Beta testers', 'Governance voters',
  'Stakers', 'Event RSVPs', 'Ambassadors', 'Partners',
]; // prettier-ignore

/** 50 list names: ten themes in five regions. */
export const LIST_NAMES = ['EU', 'US', 'LATAM', 'APAC', 'Africa'].flatMap((region) =>
  LIST_THEMES.map((theme) => `${theme} (${region})`),
);

export interface AttributeSpec {
  key: string;
  name: string;
  type: AttributeType;
  /** Share of contacts (percent) that hold a value. */
  fill: number;
}

/** 20 custom attributes of mixed types. */
export const ATTRIBUTES: readonly AttributeSpec[] = [
  { key: 'country', name: 'Country', type: 'text', fill: 95 },
  { key: 'city', name: 'City', type: 'text', fill: 80 },
  { key: 'favourite_chain', name: 'Favourite chain', type: 'text', fill: 85 },
  { key: 'language', name: 'Language', type: 'text', fill: 90 },
  { key: 'tier', name: 'Tier', type: 'text', fill: 95 },
  { key: 'referral_code', name: 'Referral code', type: 'text', fill: 70 },
  { key: 'nft_count', name: 'NFT count', type: 'number', fill: 90 },
  { key: 'token_balance', name: 'Token balance', type: 'number', fill: 85 },
  { key: 'lifetime_value', name: 'Lifetime value (USD)', type: 'number', fill: 75 },
  { key: 'age', name: 'Age', type: 'number', fill: 60 },
  { key: 'engagement_score', name: 'Engagement score', type: 'number', fill: 95 },
  { key: 'first_mint', name: 'First mint', type: 'date', fill: 80 },
  { key: 'last_login', name: 'Last login', type: 'date', fill: 90 },
  { key: 'birthday', name: 'Birthday', type: 'date', fill: 55 },
  { key: 'last_purchase', name: 'Last purchase', type: 'date', fill: 70 },
  { key: 'is_holder', name: 'Holder', type: 'boolean', fill: 95 },
  { key: 'kyc_passed', name: 'KYC passed', type: 'boolean', fill: 80 },
  { key: 'newsletter_opt_in', name: 'Newsletter opt-in', type: 'boolean', fill: 90 },
  { key: 'referrer_wallet', name: 'Referrer wallet', type: 'wallet', fill: 40 },
  { key: 'vault_wallet', name: 'Vault wallet', type: 'wallet', fill: 65 },
];

export const COUNTRIES = [
  'Germany', 'France', 'United States', 'Brazil', 'Japan', 'India', 'Nigeria', 'Spain', 'Italy', 'Canada',
  'Mexico', 'South Korea', 'Turkey', 'Poland', 'Netherlands', 'Argentina', 'Kenya', 'Vietnam', 'Sweden', 'Portugal',
]; // prettier-ignore
export const CITIES = [
  'Berlin', 'Paris', 'New York', 'Sao Paulo', 'Tokyo', 'Mumbai', 'Lagos', 'Madrid', 'Rome', 'Toronto',
  'Mexico City', 'Seoul', 'Istanbul', 'Warsaw', 'Amsterdam', 'Buenos Aires', 'Nairobi', 'Hanoi', 'Stockholm', 'Lisbon',
  'Barcelona', 'Austin', 'Denver', 'Lyon', 'Osaka', 'Bangalore', 'Accra', 'Porto', 'Milan', 'Zurich',
]; // prettier-ignore
export const CHAINS = ['Ethereum', 'Base', 'Arbitrum', 'Optimism', 'Polygon', 'Solana', 'zkSync', 'Scroll'];
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'pt', 'ja', 'ko', 'it', 'tr', 'pl', 'nl', 'vi'];
export const TIERS = ['bronze', 'silver', 'gold', 'platinum', 'diamond'];
