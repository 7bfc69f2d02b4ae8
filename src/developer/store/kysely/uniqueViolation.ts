export { isUniqueViolation } from '../../../store/uniqueViolation.js';
